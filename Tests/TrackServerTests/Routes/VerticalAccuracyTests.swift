import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Testing
import TrackServer

/// The vertical accuracy (`vacc`, issue 42 item 1), a field added through the sample record alone:
/// from each client's payload into the `vacc` column and out through every export.
@Suite struct VerticalAccuracyTests {
    static let window = "from=1732230000000&to=1732250000000"

    func export(_ server: TestServer, format: String) async throws -> String {
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/devices/iphone-42/track?\(Self.window)&format=\(format)", method: .get,
                headers: .bearer(server.phoneToken), body: nil)
        }
        #expect(response.status == .ok)
        return response.text
    }

    /// Overland's `vertical_accuracy` (5 m) and OwnTracks' `vac` (3 m) reach the GPX export as
    /// `bgt:vacc`, and a point without one has none.
    @Test func overlandAndOwnTracksVerticalAccuracyReachTheGPXExport() async throws {
        let server = try await TestServer()
        let overland = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/overland", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.overland))
        }
        let ownTracks = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/owntracks", method: .post,
                headers: .basic(user: "iphone-42", password: server.phoneToken),
                body: ByteBuffer(text: Fixtures.ownTracksLocation))
        }
        #expect(overland.status == .ok && ownTracks.status == .ok)
        let stored = try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start)
        #expect(stored.map(\.verticalAccuracy).sorted { ($0 ?? -1) < ($1 ?? -1) } == [nil, nil, 3, 5])
        let gpx = try await export(server, format: "gpx")
        let points = gpx.split(separator: "\n").filter { $0.hasPrefix("<trkpt") }
        let overlandPoint = try #require(points.first { $0.contains(#"lat="45.5113""#) })
        let ownTracksPoint = try #require(points.first { $0.contains(#"lat="48.8566""#) })
        #expect(overlandPoint.contains("<bgt:vacc>5</bgt:vacc>"), "\(overlandPoint)")
        #expect(ownTracksPoint.contains("<bgt:vacc>3</bgt:vacc>"), "\(ownTracksPoint)")
        #expect(gpx.components(separatedBy: "<bgt:vacc>").count - 1 == 2)
        let geoJSON = try await export(server, format: "geojson")
        #expect(geoJSON.contains(#""vertical_accuracy":5"#) && geoJSON.contains(#""vertical_accuracy":3"#))
        let csv = try await export(server, format: "csv").split(separator: "\n")
        #expect(csv.first?.hasSuffix(",vertical_accuracy") == true)
        #expect(csv.filter { $0.hasSuffix(",5") || $0.hasSuffix(",3") }.count == 2)
    }

    /// A phone's fix with a vertical accuracy: stored on the phone, sent as `vacc` in a version 4
    /// batch, stored by the server and exported; a fix without one sends a version 1 batch.
    @Test func thePhonesVerticalAccuracyTravelsToTheExport() async throws {
        let time = Instant(milliseconds: 1_732_240_000_123)
        let phone = try LocationStore.inMemory()
        let fix = LocationFix(
            timestamp: time, latitude: 31.2304, longitude: 121.4737, horizontalAccuracy: 8, altitude: 4,
            verticalAccuracy: 6.5)
        try phone.append(fix, trigger: .timer, state: .background)
        let pending = try phone.oldestPending(limit: 10)
        #expect(pending.map(\.verticalAccuracy) == [6.5])
        let body = BatchRequest(
            batch: UUID().wireString, device: "iphone-42", samples: pending.map(WireSample.init), gaps: [])
        #expect(body.v == BatchRequest.verticalAccuracyVersion)
        let json = try JSONEncoder().encode(body)
        #expect(String(decoding: json, as: UTF8.self).contains(#""vacc":6.5"#))
        var without = pending[0]
        without.verticalAccuracy = nil
        #expect(BatchRequest(batch: "b", device: nil, samples: [WireSample(without)], gaps: []).v == nil)

        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(bytes: json))
        }
        #expect(response.status == .ok)
        let stored = try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start)
        #expect(stored.map(\.verticalAccuracy) == [6.5])
        #expect(try await export(server, format: "gpx").contains("<bgt:vacc>6.5</bgt:vacc>"))
    }

    /// A vertical accuracy out of range refuses that sample alone, by name; -1 (Core Location's
    /// "invalid") from Overland is stored as unknown.
    @Test func anImpossibleVerticalAccuracyIsRefusedAlone() async throws {
        let server = try await TestServer()
        let body = """
            {"batch":"b","samples":[
              {"id":"0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01","seq":1,"t":1732240000000,"lat":31.2,"lon":121.4,"vacc":-3},
              {"id":"0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e02","seq":2,"t":1732240060000,"lat":31.2,"lon":121.4,"vacc":4}]}
            """
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(text: body))
        }
        let answer = try JSONDecoder().decode(BatchResponse.self, from: Data(response.body.readableBytesView))
        #expect(answer.accepted == ["0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e02"])
        #expect(
            answer.rejected.map(\.reason) == [#"sample 0: field "vacc" vertical accuracy -3.0 m is outside 0…1000000"#])
    }
}
