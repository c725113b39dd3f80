import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Testing
import TrackGeometry
import TrackServer

@Suite("Map route: any range at a bounded cost, excluded points (issue 25 items 1 and 5)")
struct MapRouteTests {
    /// Three days of a walk on the fixtures' device, each day two outings, one (0,0) point.
    static func seeded(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestServer {
        let server = try await TestServer(configure: configure)
        var samples: [TrackSample] = []
        for day in 0..<3 {
            for outing in 0..<2 {
                samples += DetailContract.walk(
                    90, minute: 7 * 60 + outing * 9 * 60, prefix: "d\(day)o\(outing)-", dayOffset: Int64(day))
            }
        }
        samples[10].latitude = 0
        samples[10].longitude = 0
        _ = try await server.store.insert(samples, device: "iphone-42", at: TestServer.start)
        // What `serve` does in the background: a map read only reads the levels (issue 41 item 2).
        try await DetailWorker(environment: server.environment).workPending()
        return server
    }

    static let range =
        "from=\(DetailContract.day.milliseconds)&to=\((DetailContract.day + .seconds(3 * 86_400)).milliseconds)"

    func get(_ server: TestServer, _ uri: String, token: String? = nil) async throws -> TestResponse {
        try await server.test { client in
            try await client.executeRequest(
                uri: uri, method: .get, headers: .bearer(token ?? server.operatorToken, json: false), body: nil)
        }
    }

    struct Answer: Decodable {
        struct Segment: Decodable {
            var start: Int64
            var end: Int64
            var line: String
        }

        struct Excluded: Decodable {
            var lat: Double
            var lon: Double
            var t: Int64
            var rule: String
        }

        var zoom: Int
        var exact: Bool
        var points: Int
        var segments: [Segment]
        var excluded: [Excluded]
        var excludedTruncated: Bool
    }

    func answer(_ response: TestResponse) throws -> Answer {
        try JSONDecoder().decode(Answer.self, from: Data(response.text.utf8))
    }

    @Test func theFinestLevelSendsEveryPointButTheExcludedOnes() async throws {
        let server = try await Self.seeded()
        let response = try await get(server, "/v1/devices/iphone-42/map?\(Self.range)&zoom=20")
        #expect(response.status == .ok)
        let body = try answer(response)
        #expect(body.exact && body.zoom == 20 && body.points == 539)
        #expect(body.segments.count == 6)  // two outings a day, three days (the night breaks the line)
        let decoded = body.segments.map { EncodedPolyline.decode($0.line)?.count ?? -1 }
        #expect(decoded.reduce(0, +) == 539)
        #expect(body.excluded.map(\.rule) == ["null-island"] && !body.excludedTruncated)
        #expect(body.segments.allSatisfy { $0.start < $0.end })
    }

    @Test func aSmallBudgetGetsACoarserLevelNeverMorePoints() async throws {
        let server = try await Self.seeded()
        let whole = try answer(try await get(server, "/v1/devices/iphone-42/map?\(Self.range)"))
        #expect(whole.exact)  // 539 points fit the default budget
        let small = try answer(try await get(server, "/v1/devices/iphone-42/map?\(Self.range)&points=40"))
        #expect(!small.exact && small.points <= 40 && small.points >= 12)
        #expect(small.segments.count == 6)  // gaps survive at every level
        let coarse = try answer(try await get(server, "/v1/devices/iphone-42/map?\(Self.range)&zoom=3"))
        #expect(coarse.zoom == 3 && coarse.points <= 40)
        // Not even zoom 0 fits: a clear 400.
        let refused = try await get(server, "/v1/devices/iphone-42/map?\(Self.range)&points=3")
        #expect(refused.status == .badRequest)
        #expect(refused.text.contains("more points") && refused.text.contains("shorter"))
    }

    @Test(arguments: [
        "zoom=-1", "zoom=21", "zoom=abc", "zoom=1e3", "zoom=99999999999999999999999", "zoom=%00", "zoom=1.5",
        "points=0", "points=100001", "points=-5", "points=ten", "from=yesterday", "from=2&to=1",
        "to=" + String(repeating: "9", count: 400),
    ])
    func hostileParametersAreRefusedWithTheReason(query: String) async throws {
        let server = try await Self.seeded()
        let response = try await get(server, "/v1/devices/iphone-42/map?\(query)")
        #expect(response.status == .badRequest)
        #expect(
            response.text.contains("zoom") || response.text.contains("points") || response.text.contains("from")
                || response.text.contains("to"))
        #expect(try await server.sampleCount() == 540)  // nothing lost
    }

    @Test func readsNeedATokenForTheDevice() async throws {
        let server = try await Self.seeded()
        #expect(
            try await get(server, "/v1/devices/iphone-42/map?\(Self.range)", token: server.otherToken).status
                == .forbidden)
        #expect(
            try await get(server, "/v1/devices/iphone-42/map?\(Self.range)", token: "bgd_nope").status == .unauthorized)
        #expect(try await get(server, "/v1/devices/nobody/map").status == .notFound)
        #expect(
            try await get(server, "/v1/devices/iphone-42/map?\(Self.range)", token: server.phoneToken).status == .ok)
    }

    @Test func stricterRulesOnTheServerExcludeMore() async throws {
        let server = try await Self.seeded { $0.cleanupRules = CleanupRules(maximumAccuracy: 5) }
        let body = try answer(try await get(server, "/v1/devices/iphone-42/map?\(Self.range)&zoom=20"))
        #expect(body.points == 0 && body.segments.isEmpty)
        #expect(body.excluded.count == 540 && body.excluded.filter { $0.rule == "null-island" }.count == 1)
    }

    @Test func theRangePageEmbedsTheFirstAnswerAndItsScript() async throws {
        let leaflet = try LeafletPageTests.fakeLeaflet()
        defer { try? FileManager.default.removeItem(atPath: leaflet) }
        let server = try await Self.seeded { $0.leafletDirectory = leaflet }
        let page = try await get(server, "/devices/iphone-42/map?year=2024&token=\(server.operatorToken)")
        #expect(page.status == .ok)
        #expect(page.text.contains("/static/bgtrack/range-map.js") && page.text.contains("\"segments\":[{"))
        #expect(page.text.contains("id=\"show-excluded\""))
        let script = try await get(server, "/static/bgtrack/range-map.js")
        #expect(script.status == .ok && script.text.contains("interactiveMs") && script.text.contains("zoomend"))
        for bad in ["year=24", "year=abcd", "year=1969", "year=%3Cscript%3E"] {
            let refused = try await get(server, "/devices/iphone-42/map?\(bad)")
            #expect(refused.status == .badRequest, "\(bad)")
            #expect(!refused.text.contains("<script>"))
        }
        let plain = try await Self.seeded()
        #expect(try await get(plain, "/devices/iphone-42/map?year=2024").status == .notImplemented)
    }
}
