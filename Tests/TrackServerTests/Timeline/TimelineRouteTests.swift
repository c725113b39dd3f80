import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Testing
import TrackServer

/// `GET /v1/devices/{id}/timeline`, the exports and the map page's timeline (issue 24).
@Suite("Timeline: endpoint, exports, map panel")
struct TimelineRouteTests {
    static let day: Int64 = 1_732_233_600_000  // 2024-11-22T00:00Z

    /// A native batch of 2-minute samples: `minutes` with a position `north` metres from home.
    static func batch(_ minutes: [Int64], north: (Int64) -> Double, seqBase: Int64 = 0) -> String {
        let samples = minutes.enumerated().map { index, minute in
            let id = String(format: "00000000-0000-4000-8000-%012lld", seqBase + Int64(index) + 1)
            let latitude = 31.2304 + north(minute) / 111_320
            return #"{"id":"\#(id)","seq":\#(seqBase + Int64(index) + 1),"t":\#(day + minute * 60_000),"#
                + #""lat":\#(latitude),"lon":121.4737,"acc":8}"#
        }
        return #"{"batch":"b\#(seqBase)","device":"iphone-42","samples":[\#(samples.joined(separator: ","))]}"#
    }

    /// Home 00:00-01:00, a 2.5 km walk, the office 01:30-03:00.
    static let morning = batch(Array(stride(from: Int64(0), to: 180, by: 2))) { minute in
        minute < 60 ? Double(minute % 3) : minute < 90 ? Double(minute - 60) * 84 : 2520 + Double(minute % 3)
    }

    func seeded(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestServer {
        let server = try await TestServer(configure: configure)
        try await server.test { client in
            let response = try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Self.morning))
            #expect(response.status == .ok, "\(response.text)")
        }
        return server
    }

    func get(_ server: TestServer, _ uri: String, token: String? = nil) async throws -> TestResponse {
        try await server.test { client in
            try await client.executeRequest(
                uri: uri, method: .get, headers: .bearer(token ?? server.operatorToken), body: nil)
        }
    }

    static let range = "from=\(day)&to=\(day + 86_400_000)"

    @Test func stayTripStayAsSamplesArrive() async throws {
        let server = try await seeded()
        let response = try await get(server, "/v1/devices/iphone-42/timeline?\(Self.range)")
        #expect(response.status == .ok)
        let body = try #require(response.json as? [String: Any])
        let entries = try #require(body["entries"] as? [[String: Any]])
        #expect(entries.map { $0["type"] as? String } == ["stay", "trip", "stay"])
        #expect(entries.map { $0["open"] as? Bool } == [false, false, true])
        #expect(entries[1]["mode"] as? String == "walking")
        let distance = try #require(entries[1]["distance_m"] as? Double)
        // A straight 2520 m walk at 1.4 m/s without speeds, taken to wind as walks do: 1.108 times
        // (docs/server.md, trip distance).
        #expect(abs(distance - 2520 * 1.108) < 150, "\(distance)")
        #expect(entries[0]["start"] as? Int64 == Self.day)
        #expect(body["stay_radius_m"] as? Double == 100)
        // The device reads its own timeline; another device may not.
        #expect(try await get(server, "/v1/devices/iphone-42/timeline", token: server.phoneToken).status == .ok)
        #expect(try await get(server, "/v1/devices/iphone-42/timeline", token: server.otherToken).status == .forbidden)
        #expect(try await get(server, "/v1/devices/ghost/timeline").status == .notFound)
    }

    /// Ingest hands its samples to the timeline without waiting for it (issue 23 item 5); a read
    /// takes whatever is still waiting first, so it sees every sample acknowledged before it.
    @Test func aReadRightAfterManyUploadsSeesThemAll() async throws {
        let server = try await TestServer()
        let minutes = Array(stride(from: Int64(0), to: 180, by: 2))
        try await server.test { client in
            for (index, minute) in minutes.enumerated() {
                let one = Self.batch(
                    [minute],
                    north: { minute in
                        minute < 60
                            ? Double(minute % 3) : minute < 90 ? Double(minute - 60) * 84 : 2520 + Double(minute % 3)
                    }, seqBase: Int64(index))
                let response = try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(text: one))
                #expect(response.status == .ok, "\(response.text)")
            }
        }
        let response = try await get(server, "/v1/devices/iphone-42/timeline?\(Self.range)")
        let body = try #require(response.json as? [String: Any])
        let entries = try #require(body["entries"] as? [[String: Any]])
        #expect(entries.map { $0["type"] as? String } == ["stay", "trip", "stay"])
        // Every sample is in an entry (a trip may share its end samples with the stays around it).
        let counts = entries.compactMap { $0["samples"] as? Int }
        #expect(counts.count == 3 && (minutes.count...minutes.count + 2).contains(counts.reduce(0, +)), "\(counts)")
    }

    /// Ingest that outpaces the timeline waits for it past the backlog limit: the samples handed
    /// over and not yet taken stay bounded, and none is lost to the timeline.
    @Test func aBackloggedTimelineMakesIngestWait() async throws {
        let server = try await TestServer { $0.timeline.backlogLimit = 10 }
        let updater = try #require(server.environment.timeline)
        let samples = (0..<200).map { index in
            TrackSample(
                key: "b\(index)",
                values: SampleValues(
                    time: Instant(milliseconds: Self.day + Int64(index) * 120_000), latitude: 31.2304,
                    longitude: 121.4737, accuracy: 8), source: .native)
        }
        _ = try await server.store.insert(samples, device: "iphone-42", at: TestServer.start)
        for sample in samples { updater.submit([sample], device: "iphone-42") }
        await updater.waitForRoom()
        #expect(updater.backlog <= 10)
        #expect(!updater.isBacklogged)
        let found = try await updater.timeline(
            device: "iphone-42", from: Instant(milliseconds: Self.day), to: Instant(milliseconds: Self.day + 86_400_000)
        )
        let entries = found.closed + found.provisional
        #expect(entries.count == 1)
        #expect(updater.backlog == 0)
    }

    @Test(arguments: [
        ("from=yesterday", "must be epoch milliseconds or ISO-8601, got"),
        ("from=2000&to=1000", "is after"),
        ("from=0&to=99999999999999", "longer than 31 days"),
        ("to=" + String(repeating: "9", count: 5000), "must be epoch milliseconds"),
        ("from=%00%ff%fe", "must be epoch milliseconds"),
    ])
    func hostileRangesAreRefusedWithTheReason(query: String, reason: String) async throws {
        let server = try await seeded()
        let response = try await get(server, "/v1/devices/iphone-42/timeline?\(query)")
        #expect(response.status == .badRequest)
        #expect(response.text.contains(reason), "\(response.text)")
        #expect(response.text.count < 400)
        #expect(try await server.sampleCount() == 90)  // nothing stored was lost
    }

    @Test func aServerWithoutTimelineSaysHowToTurnItOn() async throws {
        let server = try await seeded { $0.timelineEnabled = false }
        let response = try await get(server, "/v1/devices/iphone-42/timeline")
        #expect(response.status == .notFound)
        #expect(response.text.contains("--no-timeline"))
    }

    @Test func exportsCarryTheTimeline() async throws {
        let server = try await seeded()
        let geojson = try await get(server, "/v1/devices/iphone-42/track?\(Self.range)&format=geojson")
        #expect(geojson.text.contains(#""timeline":"stay""#) && geojson.text.contains(#""timeline":"trip""#))
        #expect(geojson.text.contains(#""mode":"walking""#))
        #expect(try JSONSerialization.jsonObject(with: Data(geojson.text.utf8)) is [String: Any])
        let gpx = try await get(server, "/v1/devices/iphone-42/track?\(Self.range)&format=gpx")
        let text = gpx.text
        #expect(text.contains("<wpt ") && text.contains("<rte><name>trip</name>"))
        // GPX 1.1 orders wpt, rte, trk.
        let wpt = try #require(text.range(of: "<wpt "))
        let rte = try #require(text.range(of: "<rte>"))
        let trk = try #require(text.range(of: "<trk>"))
        #expect(wpt.lowerBound < rte.lowerBound && rte.lowerBound < trk.lowerBound)
        let csv = try await get(server, "/v1/devices/iphone-42/track?\(Self.range)&format=csv")
        #expect(!csv.text.contains("stay"))
    }

    @Test func theMapPageListsTheDaysTimeline() async throws {
        let server = try await seeded()
        let page = try await get(server, "/devices/iphone-42?day=2024-11-22&token=\(server.operatorToken)")
        #expect(page.status == .ok)
        #expect(page.text.contains("id=\"timeline\"") && page.text.contains("src=\"/static/bgtrack/timeline.js\""))
        #expect(page.text.contains("id=\"timeline-data\"") && page.text.contains(#""type":"stay""#))
        #expect(!page.text.contains("<script>"))  // no inline script: the CSP allows none
        let script = try await get(server, "/static/bgtrack/timeline.js")
        #expect(script.status == .ok && script.text.contains("TIMELINE.entries"))
    }

    /// Every page script that shows durations rounds to whole minutes before it splits hours off:
    /// a stay of 7 h 59.9 min read "7 h 60 min" on the demo's map (the stay's end is estimated to
    /// the millisecond since 2026-11-28).
    @Test func durationsRoundToMinutesBeforeHours() async throws {
        let server = try await TestServer()
        for name in ["map.js", "leaflet-map.js", "timeline.js"] {
            let script = try await get(server, "/static/bgtrack/\(name)")
            #expect(script.status == .ok)
            #expect(script.text.contains("const m = Math.round(s / 60);"), "\(name)")
            #expect(!script.text.contains("Math.round(s % 3600 / 60)"), "\(name)")
        }
    }

    /// An Overland client cannot say why it was silent; a silence with the same position at both
    /// ends is a stay inferred across it, as for the native client (issue 38 item 2: on real
    /// traces, loggers falling silent indoors turned 40 of 66 missed stays into gaps).
    @Test func anOverlandSilenceWithTheSamePositionAtBothEndsIsAnInferredStay() async throws {
        let server = try await TestServer()
        @Sendable func overland(_ minutes: [Int64]) -> String {
            let features = minutes.map { minute in
                let time = Instant(milliseconds: Self.day + minute * 60_000).iso8601
                return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[121.4737,31.2304]},"#
                    + #""properties":{"timestamp":"\#(time)","horizontal_accuracy":10}}"#
            }
            return #"{"locations":[\#(features.joined(separator: ","))]}"#
        }
        for minutes in [Array(stride(from: Int64(0), to: 30, by: 2)), Array(stride(from: Int64(120), to: 150, by: 2))] {
            try await server.test { client in
                let response = try await client.executeRequest(
                    uri: "/ingest/overland", method: .post, headers: .bearer(server.phoneToken),
                    body: ByteBuffer(text: overland(minutes)))
                #expect(response.status == .ok, "\(response.text)")
            }
        }
        let response = try await get(server, "/v1/devices/iphone-42/timeline?\(Self.range)")
        let entries = try #require((response.json as? [String: Any])?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["type"] as? String } == ["stay"])
        #expect(entries.first?["inferred"] as? Bool == true)
    }
    /// A native client's reason for a gap (batch version 2) explains the timeline's gap it
    /// overlaps; the timeline never guesses one.
    @Test func aNativeGapCarriesThePhonesReason() async throws {
        let server = try await TestServer()
        try await postAroundAGap(server, reason: "force-quit")
        let response = try await get(server, "/v1/devices/iphone-42/timeline?\(Self.range)")
        let entries = try #require((response.json as? [String: Any])?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["type"] as? String } == ["stay", "gap", "stay"])
        #expect(entries[1]["explained"] as? Bool == true)
        let reasons = try #require(entries[1]["reasons"] as? [[String: Any]])
        #expect(reasons.map { $0["reason"] as? String } == ["force-quit"])
        #expect(reasons.first?["detail"] as? String == "the user reopened it")
        #expect((response.json as? [String: Any])?["delays"] as? [Any] != nil)
    }

    /// Issue 37 item 3: a phone from before the split sends "no network" as a gap (batch version
    /// 2). It is accepted and shown as an upload delay, listed apart; the timeline's gap it
    /// overlaps stays unexplained (sampling goes on offline: no network never explains a gap).
    @Test func anOldPhonesNoNetworkGapIsAnUploadDelayAndExplainsNoGap() async throws {
        let server = try await TestServer()
        try await postAroundAGap(server, reason: "no-network")
        let response = try await get(server, "/v1/devices/iphone-42/timeline?\(Self.range)")
        let body = try #require(response.json as? [String: Any])
        let entries = try #require(body["entries"] as? [[String: Any]])
        #expect(entries.map { $0["type"] as? String } == ["stay", "gap", "stay"])
        #expect(entries[1]["explained"] as? Bool == false)
        #expect((entries[1]["reasons"] as? [Any])?.isEmpty == true)
        let delays = try #require(body["delays"] as? [[String: Any]])
        #expect(delays.map { $0["reason"] as? String } == ["no-network"])
        #expect(delays.first?["start"] as? Int64 == Self.day + 30 * 60_000)
        let page = try await get(server, "/devices/iphone-42?day=2024-11-22&token=\(server.operatorToken)")
        #expect(page.text.contains(#""delays":[{"#) && page.text.contains("uploads waited, no network"))
        #expect(!page.text.contains(#""no_samples""#), "no sampling gap on the page: \(page.text)")
    }

    /// Home until 00:30, nothing until 02:00, then 3 km away; the second batch (version 2)
    /// carries a 00:30–02:00 interval with `reason`.
    func postAroundAGap(_ server: TestServer, reason: String) async throws {
        let before = Self.batch(Array(stride(from: Int64(0), to: 32, by: 2))) { minute in Double(minute % 3) }
        let after = Self.batch(Array(stride(from: Int64(120), to: 160, by: 2)), north: { _ in 3000 }, seqBase: 100)
        let gap =
            #"{"id":"6f1c0000-0000-4000-8000-000000000001","start":\#(Self.day + 30 * 60_000),"#
            + #""end":\#(Self.day + 120 * 60_000),"reason":"\#(reason)","detail":"the user reopened it"}"#
        let withGap = after.replacingOccurrences(of: #"{"batch":"#, with: #"{"v":2,"gaps":[\#(gap)],"batch":"#)
        for body in [before, withGap] {
            try await server.test { client in
                let response = try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(text: body)
                )
                #expect(response.status == .ok, "\(response.text)")
            }
        }
    }
}
