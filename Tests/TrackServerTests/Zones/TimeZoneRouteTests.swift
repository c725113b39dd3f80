import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Testing
import TrackServer

/// The native batch's `tz` (version 3) and the day pages that follow it (issue 37 item 2).
@Suite("Time zones: the phone's tz, DST days on the map, zone changes, the operator's zone")
struct TimeZoneRouteTests {
    /// Samples every 10 minutes from `from` (inclusive) to `to` (exclusive).
    static func times(_ from: String, _ to: String) throws -> [Instant] {
        let start = try #require(Instant(iso8601: from))
        let end = try #require(Instant(iso8601: to))
        return stride(from: start.milliseconds, to: end.milliseconds, by: 600_000).map(Instant.init(milliseconds:))
    }

    static func batch(_ times: [Instant], tz: String?, firstSeq: Int = 1) -> String {
        let samples = times.enumerated().map { index, time in
            let seq = firstSeq + index
            return
                #"{"id": "00000000-0000-4000-8000-\#(String(format: "%012d", seq))", "seq": \#(seq), "t": \#(time.milliseconds), "lat": 52.52, "lon": 13.405}"#
        }
        let zone = tz.map { #", "v": 3, "tz": "\#($0)""# } ?? ""
        return
            #"{"batch": "b\#(firstSeq)", "device": "iphone-42"\#(zone), "samples": [\#(samples.joined(separator: ","))]}"#
    }

    func post(_ server: TestServer, _ body: String) async throws -> TestResponse {
        try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(text: body))
        }
    }

    func page(_ server: TestServer, day: String) async throws -> String {
        try await server.test { client in
            try await client.executeRequest(
                uri: "/devices/iphone-42?day=\(day)", method: .get, headers: .bearer(server.phoneToken), body: nil)
        }.text
    }

    /// "150 points" from the page's summary.
    func points(_ page: String) -> Int? {
        guard let range = page.range(of: #"(\d+) points"#, options: .regularExpression) else { return nil }
        return Int(page[range].split(separator: " ")[0])
    }

    /// Every sample is on exactly one of the pages of the days around it.
    func expectEachSampleOnOneDay(
        _ server: TestServer, days: [String], total: Int, hours: [String: Int], zone: String
    ) async throws {
        var sum = 0
        for day in days {
            let text = try await page(server, day: day)
            let count = try #require(points(text), "\(day)")
            sum += count
            if let expected = hours[day] {
                #expect(count == expected * 6, "\(day): \(count) samples, \(expected) hours expected")
                #expect(text.contains("(\(zone) day)"), "\(day)")
            }
        }
        #expect(sum == total)
    }

    @Test func aBerlinAutumnDayHas25HoursAndEverySampleIsOnOneDay() async throws {
        let server = try await TestServer()
        let times = try Self.times("2024-10-26T20:00:00Z", "2024-10-28T02:00:00Z")
        let response = try await post(server, Self.batch(times, tz: "Europe/Berlin"))
        #expect(response.status == .ok)
        #expect(!response.text.contains("tzRejected"))
        try await expectEachSampleOnOneDay(
            server, days: ["2024-10-25", "2024-10-26", "2024-10-27", "2024-10-28", "2024-10-29"], total: times.count,
            hours: ["2024-10-27": 25], zone: "Europe/Berlin")
        let zones = try await server.store.timeZones(device: "iphone-42")
        #expect(zones.reported == [.init(since: times[0], zone: "Europe/Berlin")])
    }

    @Test func aBerlinSpringDayHas23Hours() async throws {
        let server = try await TestServer()
        let times = try Self.times("2024-03-30T12:00:00Z", "2024-04-01T12:00:00Z")
        _ = try await post(server, Self.batch(times, tz: "Europe/Berlin"))
        try await expectEachSampleOnOneDay(
            server, days: ["2024-03-30", "2024-03-31", "2024-04-01"], total: times.count,
            hours: ["2024-03-31": 23], zone: "Europe/Berlin")
    }

    @Test func newYorkDSTDaysHave23And25Hours() async throws {
        let server = try await TestServer()
        let spring = try Self.times("2024-03-09T12:00:00Z", "2024-03-11T12:00:00Z")
        let autumn = try Self.times("2024-11-02T12:00:00Z", "2024-11-04T12:00:00Z")
        _ = try await post(server, Self.batch(spring, tz: "America/New_York"))
        _ = try await post(server, Self.batch(autumn, tz: "America/New_York", firstSeq: 1_000))
        try await expectEachSampleOnOneDay(
            server, days: ["2024-03-09", "2024-03-10", "2024-03-11"], total: spring.count,
            hours: ["2024-03-10": 23], zone: "America/New_York")
        try await expectEachSampleOnOneDay(
            server, days: ["2024-11-02", "2024-11-03", "2024-11-04"], total: autumn.count,
            hours: ["2024-11-03": 25], zone: "America/New_York")
    }

    /// Kathmandu (+05:45): the day begins at 18:15 UTC, and the page's times carry the odd offset.
    @Test func kathmanduDaysBeginAtAQuarterPastSixUTC() async throws {
        let server = try await TestServer()
        let times = try Self.times("2024-11-19T18:15:00Z", "2024-11-21T18:15:00Z")
        _ = try await post(server, Self.batch(times, tz: "Asia/Kathmandu"))
        try await expectEachSampleOnOneDay(
            server, days: ["2024-11-19", "2024-11-20", "2024-11-21", "2024-11-22"], total: times.count,
            hours: ["2024-11-20": 24, "2024-11-21": 24], zone: "Asia/Kathmandu")
        let text = try await page(server, day: "2024-11-20")
        // The script's offset table: +05:45 is 345 minutes.
        #expect(text.contains(#""offsets":[["#) && text.contains(",345]]"))
    }

    /// A flight Berlin → New York: the batches before landing say Europe/Berlin, those after
    /// America/New_York. The travel day runs from Berlin's midnight to New York's: 30 hours.
    @Test func aDeviceThatChangesZoneMidTripHasEachSampleOnOneDay() async throws {
        let server = try await TestServer()
        let times = try Self.times("2024-11-19T20:00:00Z", "2024-11-21T08:00:00Z")
        let landing = try #require(Instant(iso8601: "2024-11-20T15:00:00Z"))
        let before = times.filter { $0 < landing }
        let after = times.filter { $0 >= landing }
        _ = try await post(server, Self.batch(before, tz: "Europe/Berlin"))
        _ = try await post(server, Self.batch(after, tz: "America/New_York", firstSeq: 1_000))
        try await expectEachSampleOnOneDay(
            server, days: ["2024-11-19", "2024-11-20", "2024-11-21"], total: times.count,
            hours: ["2024-11-20": 30], zone: "Europe/Berlin, America/New_York")
        let zones = try await server.store.timeZones(device: "iphone-42")
        #expect(zones.reported.map(\.zone) == ["Europe/Berlin", "America/New_York"])
        #expect(zones.reported.last?.since == landing)
    }

    /// The same zone again costs no store row; a batch without `tz` keeps the last zone.
    @Test func aZoneIsStoredOnlyWhenItChanges() async throws {
        let server = try await TestServer()
        let times = try Self.times("2024-11-20T00:00:00Z", "2024-11-20T05:00:00Z")
        for (index, part) in stride(from: 0, to: times.count, by: 10).enumerated() {
            let slice = Array(times[part..<min(part + 10, times.count)])
            _ = try await post(server, Self.batch(slice, tz: index == 1 ? nil : "Asia/Kathmandu", firstSeq: part + 1))
        }
        #expect(try await server.store.timeZones(device: "iphone-42").reported.count == 1)
        #expect(try await server.sampleCount() == times.count)
    }

    /// A name the server does not know keeps the samples and says why in `tzRejected`; a `tz` that
    /// is not a string refuses the batch (400), so nothing is half-read.
    @Test func anUnknownZoneIsRefusedAloneAndTheSamplesAreStored() async throws {
        let server = try await TestServer()
        let times = try Self.times("2024-11-20T00:00:00Z", "2024-11-20T01:00:00Z")
        let response = try await post(server, Self.batch(times, tz: "Mars/Olympus_Mons"))
        #expect(response.status == .ok)
        let answer = try JSONDecoder().decode(BatchResponse.self, from: Data(response.body.readableBytesView))
        #expect(answer.accepted.count == times.count)
        let reason = try #require(answer.tzRejected)
        #expect(reason.contains("\"Mars/Olympus_Mons\"") && reason.contains("IANA"))
        #expect(try await server.store.timeZones(device: "iphone-42").reported.isEmpty)

        let typed = Self.batch(times, tz: nil).replacingOccurrences(
            of: #""device": "iphone-42""#, with: #""device": "iphone-42", "tz": 5"#)
        let refused = try await post(server, typed)
        #expect(refused.status == .badRequest)
        #expect(refused.text.contains("\\\"tz\\\"") || refused.text.contains("\"tz\""))
    }

    /// The operator's zone (`bgtrack device set --time-zone`) wins over the reported one.
    @Test func theOperatorsZoneOverridesTheReportedOne() async throws {
        let server = try await TestServer()
        let times = try Self.times("2024-11-03T00:00:00Z", "2024-11-05T00:00:00Z")
        _ = try await post(server, Self.batch(times, tz: "Europe/Berlin"))
        #expect(try await server.store.setTimeZoneOverride(device: "iphone-42", "America/New_York"))
        #expect(try await !server.store.setTimeZoneOverride(device: "nobody", "America/New_York"))
        let text = try await page(server, day: "2024-11-03")
        #expect(text.contains("(America/New_York day)"))
        #expect(points(text) == 25 * 6)  // 04:00Z (midnight EDT) to 05:00Z the next day (midnight EST)
        #expect(try await server.store.setTimeZoneOverride(device: "iphone-42", nil))
        #expect(try await page(server, day: "2024-11-03").contains("(Europe/Berlin day)"))
    }

    func export(_ server: TestServer, _ format: String, from: String, to: String) async throws -> String {
        try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/devices/iphone-42/track?from=\(from)&to=\(to)&format=\(format)", method: .get,
                headers: .bearer(server.phoneToken), body: nil)
        }.text
    }

    /// The exports write each sample's local time in the zone the device was in: Berlin's offset
    /// before the landing, New York's after, and UTC beside both (issue 37 item 2).
    @Test func theExportsLocalTimesFollowTheZoneTheDeviceWasIn() async throws {
        let server = try await TestServer()
        let times = try Self.times("2024-11-20T14:00:00Z", "2024-11-20T16:00:00Z")
        let landing = try #require(Instant(iso8601: "2024-11-20T15:00:00Z"))
        _ = try await post(server, Self.batch(times.filter { $0 < landing }, tz: "Europe/Berlin"))
        _ = try await post(server, Self.batch(times.filter { $0 >= landing }, tz: "America/New_York", firstSeq: 1_000))
        let range = ("2024-11-20T00:00:00Z", "2024-11-21T00:00:00Z")

        let csv = try await export(server, "csv", from: range.0, to: range.1).split(separator: "\n")
        #expect(csv.first?.hasSuffix(",local_time,time_zone,vertical_accuracy") == true)
        #expect(csv.count == times.count + 1)
        #expect(
            csv.contains {
                $0.hasPrefix("2024-11-20T14:50:00.000Z,")
                    && $0.hasSuffix(",2024-11-20T15:50:00.000+01:00,Europe/Berlin,")
            })
        #expect(
            csv.contains {
                $0.hasPrefix("2024-11-20T15:00:00.000Z,")
                    && $0.hasSuffix(",2024-11-20T10:00:00.000-05:00,America/New_York,")
            })

        let gpx = try await export(server, "gpx", from: range.0, to: range.1)
        #expect(
            gpx.contains(
                "<time>2024-11-20T14:00:00.000Z</time><extensions><bgt:local_time>2024-11-20T15:00:00.000+01:00</bgt:local_time><bgt:time_zone>Europe/Berlin</bgt:time_zone>"
            ))
        #expect(
            gpx.contains(
                "<bgt:local_time>2024-11-20T10:50:00.000-05:00</bgt:local_time><bgt:time_zone>America/New_York</bgt:time_zone>"
            ))

        let geo = try await export(server, "geojson", from: range.0, to: range.1)
        #expect(
            geo.contains(
                #""time":"2024-11-20T15:10:00.000Z","local_time":"2024-11-20T10:10:00.000-05:00","time_zone":"America/New_York""#
            ))

        // The operator's zone wins here too.
        #expect(try await server.store.setTimeZoneOverride(device: "iphone-42", "Asia/Kathmandu"))
        let overridden = try await export(server, "csv", from: range.0, to: range.1).split(separator: "\n")
        #expect(overridden.dropFirst().allSatisfy { $0.hasSuffix("+05:45,Asia/Kathmandu,") })
    }
}
