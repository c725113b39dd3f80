import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TrackServer

@Suite("Overland, OwnTracks and OsmAnd ingest (docs/protocol.md §Overland, §OwnTracks, §OsmAnd)")
struct ClientProtocolRouteTests {
    @Test func overlandBatchWithCurrentAndTripAnswersResultOk() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/overland", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.overland))
        }
        #expect(response.status == .ok)
        #expect((response.json as? [String: Any])?["result"] as? String == "ok")
        #expect(try await server.sampleCount() == 3)
        #expect(try await server.store.eventCount(device: "iphone-42") == 1)
        let samples = try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start)
        #expect(samples[0].charging == true && samples[0].speed == 4.2)
        #expect(samples[1].speed == nil && samples[1].course == nil)  // -1 means invalid
    }

    /// iOS reports an unknown battery as level -1 (battery_state "unknown") and an invalid altitude
    /// with a negative vertical accuracy. Overland forwards both; the location itself is good, and
    /// skipping it loses it for good because Overland deletes everything once it reads "ok".
    @Test func overlandUnknownBatteryAndInvalidAltitudeKeepTheLocation() async throws {
        let server = try await TestServer()
        let body = """
            {"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-122.6302,45.5113]},
              "properties":{"timestamp":"2024-11-22T02:00:00Z","altitude":0,"vertical_accuracy":-1,"speed":3,
                "horizontal_accuracy":10,"battery_state":"unknown","battery_level":-1}}]}
            """
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/overland", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: body))
        }
        #expect(response.status == .ok)
        #expect((response.json as? [String: Any])?["saved"] as? Int == 1, "\(response.text)")
        let sample = try #require(
            try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start).first)
        #expect(sample.battery == nil && sample.charging == nil)
        #expect(sample.altitude == nil)
        #expect(sample.speed == 3 && sample.accuracy == 10)
    }

    @Test func overlandAcceptsTokenInQueryAndSkipsNullIsland() async throws {
        let server = try await TestServer()
        let body = """
            {"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},
              "properties":{"timestamp":"2024-11-22T02:00:00Z"}}]}
            """
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/overland?token=\(server.phoneToken)", method: .post,
                headers: [.contentType: "application/json"], body: ByteBuffer(text: body))
        }
        #expect(response.status == .ok)
        #expect(response.text.contains("\"result\":\"ok\"") && response.text.contains("0,0"))
        #expect(try await server.sampleCount() == 0)
    }

    @Test func overlandErrorsAreNon2xxWithAnErrorBody() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/overland", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: "{\"locations\": 3}"))
        }
        #expect(response.status == .badRequest)
        #expect((response.json as? [String: Any])?["error"] is String)
    }

    @Test func ownTracksLocationWithEveryFieldIsNormalised() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/owntracks", method: .post,
                headers: .basic(user: "iphone-42", password: server.phoneToken),
                body: ByteBuffer(text: Fixtures.ownTracksLocation))
        }
        #expect(response.status == .ok)
        #expect(response.text == "[]")
        let sample = try #require(
            try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start).first)
        #expect(sample.speed == 10)  // 36 km/h
        #expect(sample.battery == 0.64)
        #expect(sample.charging == true)
        #expect(sample.trigger == "manual")
        #expect(sample.time.milliseconds == 1_732_240_000_000)
    }

    @Test func ownTracksNonLocationTypeIsStoredNeverAnError() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/owntracks", method: .post,
                headers: .basic(user: "iphone-42", password: server.phoneToken),
                body: ByteBuffer(text: Fixtures.ownTracksTransition))
        }
        #expect(response.status == .ok && response.text == "[]")
        #expect(try await server.sampleCount() == 0)
        #expect(try await server.store.eventCount(device: "iphone-42") == 1)
    }

    @Test func osmAndQueryGetConvertsKnots() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/osmand?\(Fixtures.osmAndQuery)", method: .get, headers: [:], body: nil)
        }
        #expect(response.status == .ok)
        #expect(response.body.readableBytes == 0)
        let sample = try #require(
            try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start).first)
        #expect(abs((sample.speed ?? 0) - 5.14444) < 1e-6)
        #expect(sample.battery == 0.77 && sample.charging == true && sample.course == 45)
    }

    @Test func osmAndFormPostWithLocationParameter() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/osmand", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(text: Fixtures.osmAndForm))
        }
        #expect(response.status == .ok)
        let sample = try #require(
            try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start).first)
        #expect(sample.latitude == 52.521 && sample.longitude == 13.406)
        #expect(sample.time.milliseconds == 1_732_242_600_000)  // 2024-11-22 02:30:00 UTC
    }

    @Test func osmAndJSONArray() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/osmand?token=\(server.phoneToken)", method: .post,
                headers: [.contentType: "application/json"], body: ByteBuffer(text: Fixtures.osmAndJSON))
        }
        #expect(response.status == .ok)
        #expect(try await server.sampleCount() == 2)
    }

    @Test func osmAndUnknownDeviceIs400AndMissingTokenIs401() async throws {
        let server = try await TestServer()
        let (unknown, tokenless) = try await server.test { client in
            (
                try await client.executeRequest(
                    uri: "/ingest/osmand?id=nobody&lat=1&lon=1&token=x", method: .get, headers: [:], body: nil),
                try await client.executeRequest(
                    uri: "/ingest/osmand?id=iphone-42&lat=1&lon=1", method: .get, headers: [:], body: nil)
            )
        }
        #expect(unknown.status == .badRequest)
        #expect(tokenless.status == .unauthorized)
    }

    @Test func osmAndTokenlessWhenTheOperatorAllowsIt() async throws {
        let server = try await TestServer { $0.allowTokenlessOsmAnd = true }
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/osmand?id=iphone-42&lat=1.5&lon=1.5&timestamp=1732240000", method: .get, headers: [:],
                body: nil)
        }
        #expect(response.status == .ok)
        #expect(try await server.sampleCount() == 1)
    }

    @Test func idempotentByDeviceTimeAndPosition() async throws {
        let server = try await TestServer()
        try await server.test { client in
            for _ in 0..<3 {
                let response = try await client.executeRequest(
                    uri: "/ingest/osmand?\(Fixtures.osmAndQuery)", method: .get, headers: [:], body: nil)
                #expect(response.status == .ok)
            }
        }
        #expect(try await server.sampleCount() == 1)
    }
}
