import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Testing
import TrackGeometry
import TrackServer

@Suite("Reading: track API, map page, index, ops routes (docs/protocol.md §Reading)")
struct ReadingRouteTests {
    func seeded() async throws -> TestServer {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeBatch))
            #expect(response.status == .ok)
        }
        return server
    }

    @Test(arguments: ["geojson", "gpx", "csv", "polyline"])
    func trackExports(format: String) async throws {
        let server = try await seeded()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/devices/iphone-42/track?from=1732230000000&to=1732250000000&format=\(format)&simplify=5",
                method: .get, headers: .bearer(server.phoneToken), body: nil)
        }
        #expect(response.status == .ok)
        switch format {
        case "geojson": #expect(response.text.contains("MultiLineString") && response.text.contains("121.4737"))
        case "gpx": #expect(response.text.contains("<gpx") && response.text.contains("<trkseg>"))
        case "csv": #expect(response.text.split(separator: "\n").count == 3)
        default: #expect(response.text.contains("segments"))
        }
    }

    @Test func mapPageDrawsTheDayWithoutExternalResources() async throws {
        let server = try await seeded()
        server.clock.advance(by: .seconds(3600))
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/devices/iphone-42?day=2024-11-22&token=\(server.operatorToken)", method: .get, headers: [:],
                body: nil)
        }
        #expect(response.status == .ok)
        let page = response.text
        #expect(page.contains("\"segments\":[[[31.2304,121.4737"))
        #expect(page.contains("src=\"/static/bgtrack/map.js\"") && page.contains("type=\"date\""))
        let script = try await server.test { client in
            try await client.executeRequest(uri: "/static/bgtrack/map.js", method: .get, headers: [:], body: nil)
        }
        #expect(script.text.contains("scalebar"))
        #expect(page.contains("id=\"offline\""))  // an hour of silence
        #expect(!page.contains("https://") && !page.contains("src=\"http"))
    }

    /// Map days follow the server's time zone for a device that reports none: 01:46 UTC on the
    /// 22nd is 20:46 on the 21st in New York (EST, -05:00, in November).
    @Test func mapDaysBeginAtLocalMidnight() async throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let server = try await TestServer { $0.timeZone = newYork }
        let (upload, previous, same, index) = try await server.test { client in
            (
                try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                    body: ByteBuffer(text: Fixtures.nativeBatch)),
                try await client.executeRequest(
                    uri: "/devices/iphone-42?day=2024-11-21", method: .get, headers: .bearer(server.phoneToken),
                    body: nil),
                try await client.executeRequest(
                    uri: "/devices/iphone-42?day=2024-11-22", method: .get, headers: .bearer(server.phoneToken),
                    body: nil),
                try await client.executeRequest(
                    uri: "/?token=\(server.operatorToken)", method: .get, headers: [:], body: nil)
            )
        }
        #expect(upload.status == .ok)
        #expect(previous.text.contains("\"segments\":[[[31.2304,121.4737"))
        #expect(previous.text.contains("(America/New_York day)"))
        #expect(same.text.contains("\"segments\":[]"))
        #expect(index.text.contains("-05:00 America/New_York"))
    }

    /// A year-long range must not load every stored sample into memory: past `maxTrackPoints`
    /// the track API and the map page answer 400 and ask for a shorter range.
    @Test func aRangeOverTheTrackPointLimitIs400NotAHugeResponse() async throws {
        let server = try await TestServer { $0.maxTrackPoints = 1 }
        let (upload, track, map) = try await server.test { client in
            (
                try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                    body: ByteBuffer(text: Fixtures.nativeBatch)),
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/track?from=0&to=1800000000000&format=csv", method: .get,
                    headers: .bearer(server.phoneToken), body: nil),
                try await client.executeRequest(
                    uri: "/devices/iphone-42?day=2024-11-22", method: .get, headers: .bearer(server.phoneToken),
                    body: nil)
            )
        }
        #expect(upload.status == .ok)
        #expect(track.status == .badRequest)
        #expect((track.json as? [String: String])?["error"]?.contains("more than 1 samples") == true)
        #expect(map.status == .badRequest)
        let underLimit = try await TestServer { $0.maxTrackPoints = 2 }
        let full = try await underLimit.test { client in
            _ = try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(underLimit.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeBatch))
            return try await client.executeRequest(
                uri: "/v1/devices/iphone-42/track?from=0&to=1800000000000&format=csv", method: .get,
                headers: .bearer(underLimit.phoneToken), body: nil)
        }
        #expect(full.status == .ok && full.text.split(separator: "\n").count == 3)
    }

    @Test func indexListsDevicesWithLastSeen() async throws {
        let server = try await seeded()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/?token=\(server.operatorToken)", method: .get, headers: [:], body: nil)
        }
        #expect(response.status == .ok)
        #expect(response.text.contains("iphone-42") && response.text.contains("other"))
        #expect(response.text.contains("2024-11-22 03:06:40 +00:00 Etc/UTC"))
    }

    @Test func healthMetricsAndOpenAPI() async throws {
        let server = try await seeded()
        let (health, metrics, spec) = try await server.test { client in
            (
                try await client.executeRequest(uri: "/healthz", method: .get, headers: [:], body: nil),
                try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil),
                try await client.executeRequest(uri: "/openapi.yaml", method: .get, headers: [:], body: nil)
            )
        }
        #expect(health.status == .ok && health.text.contains("ok"))
        #expect(metrics.text.contains("bgtrack_samples_total{outcome=\"accepted\",protocol=\"native\"} 2"))
        #expect(metrics.text.contains("# TYPE bgtrack_devices gauge"))
        for path in [
            "/v1/batches", "/ingest/overland", "/ingest/owntracks", "/ingest/osmand", "/v1/sessions",
            "/v1/sessions/heartbeat", "/v1/devices", "/v1/devices/{id}/track", "/devices/{id}", "/healthz",
            "/metrics", "/openapi.yaml", "/v1/devices/{id}/imports",
        ] {
            #expect(spec.text.contains("  \(path):"), "openapi.yaml lacks \(path)")
        }
    }

    @Test func unknownRouteIs404WithJSONError() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(uri: "/nope", method: .get, headers: [:], body: nil)
        }
        #expect(response.status == .notFound)
        #expect((response.json as? [String: Any])?["error"] is String)
    }
}
