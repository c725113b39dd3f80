import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TrackServer

/// Issue 23, item 4: what the server stores and counts, whichever client sent it.
@Suite("Data quality and operator counts (issue 23, item 4)")
struct DataQualityTests {
    static func post(
        _ server: TestServer, _ uri: String, _ headers: HTTPFields, _ body: String
    ) async throws -> TestResponse {
        try await server.test { client in
            try await client.executeRequest(uri: uri, method: .post, headers: headers, body: ByteBuffer(text: body))
        }
    }

    /// `acc: 0` is what a client sends without a fix's accuracy: unknown, never a perfect 0 m fix.
    @Test(arguments: ["native", "overland", "owntracks", "osmand", "osmand-json"])
    func anAccuracyOfZeroIsStoredAsUnknown(client: String) async throws {
        let server = try await TestServer()
        let response: TestResponse
        switch client {
        case "native":
            let body = Fixtures.nativeBatch.replacingOccurrences(of: "\"acc\": 12.5", with: "\"acc\": 0")
            response = try await Self.post(server, "/v1/batches", .bearer(server.phoneToken), body)
        case "overland":
            let body = Fixtures.overland.replacingOccurrences(
                of: "\"horizontal_accuracy\":10", with: "\"horizontal_accuracy\":0")
            response = try await Self.post(server, "/ingest/overland", .bearer(server.phoneToken), body)
        case "owntracks":
            let body = Fixtures.ownTracksLocation.replacingOccurrences(of: "\"acc\":15", with: "\"acc\":0")
            response = try await Self.post(
                server, "/ingest/owntracks", .basic(user: "iphone-42", password: server.phoneToken), body)
        case "osmand":
            let query = Fixtures.osmAndQuery.replacingOccurrences(of: "accuracy=6", with: "accuracy=0")
            response = try await server.test { client in
                try await client.executeRequest(uri: "/ingest/osmand?\(query)", method: .get, headers: [:], body: nil)
            }
        default:
            let body = Fixtures.osmAndJSON.replacingOccurrences(of: "\"accuracy\":5", with: "\"accuracy\":0")
            response = try await Self.post(
                server, "/ingest/osmand?token=\(server.phoneToken)", [.contentType: "application/json"], body)
        }
        #expect(response.status == .ok, "\(response.text)")
        let first = try #require(
            try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start).first)
        #expect(first.accuracy == nil)
    }

    /// Overland resends a batch it did not see answered as it is: its trip is stored once.
    @Test func aResentOverlandBatchStoresItsTripOnce() async throws {
        let server = try await TestServer()
        for _ in 0..<3 {
            let response = try await Self.post(
                server, "/ingest/overland", .bearer(server.phoneToken), Fixtures.overland)
            #expect(response.status == .ok)
        }
        #expect(try await server.sampleCount() == 3)
        #expect(try await server.store.eventCount(device: "iphone-42") == 1)
        // A later batch with new locations and the trip goes on: stored.
        let later = Fixtures.overland.replacingOccurrences(of: "2024-11-22T02:0", with: "2024-11-22T02:3")
        #expect(try await Self.post(server, "/ingest/overland", .bearer(server.phoneToken), later).status == .ok)
        #expect(try await server.store.eventCount(device: "iphone-42") == 2)
    }

    /// Quarantined OwnTracks and OsmAnd points count as rejected samples and as quarantines, by
    /// protocol; every protocol's quarantine counter is there from the start.
    @Test func quarantinesAreCountedPerProtocolInMetrics() async throws {
        let server = try await TestServer()
        let metrics = server.environment.metrics
        let bad = #"{"_type":"location","lat":91,"lon":2,"tst":1732240000}"#
        #expect(
            try await Self.post(server, "/ingest/owntracks", .basic(user: "u", password: server.phoneToken), bad)
                .status == .ok)
        let osmand = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/osmand?id=iphone-42&token=\(server.phoneToken)&lat=95&lon=1&timestamp=1732240000",
                method: .get, headers: [:], body: nil)
        }
        #expect(osmand.status == .ok)
        let overland = Fixtures.overland.replacingOccurrences(of: "-122.6310,45.5120", with: "0,0")
        #expect(try await Self.post(server, "/ingest/overland", .bearer(server.phoneToken), overland).status == .ok)
        for source in ["owntracks", "osmand", "overland"] {
            #expect(await metrics.value("bgtrack_quarantined_total", ["protocol": source]) == 1, "\(source)")
            #expect(
                await metrics.value("bgtrack_samples_total", ["protocol": source, "outcome": "rejected"]) == 1,
                "\(source)")
        }
        let text = try await server.test { client in
            try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil)
        }.text
        #expect(text.contains("bgtrack_quarantined_total{protocol=\"native\"} 0"))
        #expect(text.contains("bgtrack_quarantined_total{protocol=\"osmand\"} 1"))
        #expect(try await server.store.device(named: "iphone-42")?.rejectedCount == 3)
    }
}
