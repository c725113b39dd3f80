import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackServer

/// Local days in IANA zones with daylight saving (issue 37 item 2): a DST day has 23 or 25 hours,
/// odd offsets and half-hour DST shifts are exact, and every instant lies on exactly one day.
@Suite("Local time: IANA zones, DST days, zone changes")
struct LocalTimeTests {
    static func zone(_ name: String) throws -> TimeZone { try TimeZoneName.zone(name) }

    static func day(_ text: String) throws -> Int {
        let instant = try #require(Instant(iso8601: text + "T00:00:00Z"))
        return Int(instant.milliseconds / 86_400_000)
    }

    /// Samples every 5 minutes from two days before `first` to two days after `last`: each lies on
    /// exactly one of the days around them (the one `day(of:)` names), and each day holds as many
    /// samples as its length in hours × 12.
    static func checkEverySampleOnOneDay(
        _ local: LocalTime, first: String, last: String, hours expected: [String: Double]
    ) throws {
        let days = try (day(first) - 2)...(day(last) + 2)
        let ranges = Dictionary(uniqueKeysWithValues: days.map { ($0, local.range(ofDay: $0)) })
        let start = try #require(ranges[days.lowerBound]).upperBound
        let end = try #require(ranges[days.upperBound]).lowerBound
        var perDay: [Int: Int] = [:]
        var t = start
        while t < end {
            let holding = days.filter { ranges[$0]?.contains(t) == true }
            #expect(holding == [local.day(of: t)], "\(t.iso8601) lies on \(holding), day(of:) says \(local.day(of: t))")
            perDay[local.day(of: t), default: 0] += 1
            t = t + .seconds(300)
        }
        for (text, hours) in expected {
            let number = try day(text)
            #expect(Double(perDay[number] ?? 0) / 12 == hours, "\(text)")
            let range = try #require(ranges[number])
            #expect(
                Double(range.upperBound.milliseconds - range.lowerBound.milliseconds) / 3_600_000 == hours, "\(text)")
        }
    }

    @Test func berlinHasA23And25HourDay() throws {
        let local = LocalTime(zone: try Self.zone("Europe/Berlin"))
        try Self.checkEverySampleOnOneDay(
            local, first: "2024-03-30", last: "2024-03-31",
            hours: ["2024-03-30": 24, "2024-03-31": 23, "2024-04-01": 24])
        try Self.checkEverySampleOnOneDay(
            local, first: "2024-10-26", last: "2024-10-27",
            hours: ["2024-10-26": 24, "2024-10-27": 25, "2024-10-28": 24])
        // Midnight before and after the spring change: 23:00Z (CET) and 22:00Z (CEST).
        let spring = local.range(ofDay: try Self.day("2024-03-31"))
        #expect(spring.lowerBound.iso8601.hasPrefix("2024-03-30T23:00:00"))
        #expect(spring.upperBound.iso8601.hasPrefix("2024-03-31T22:00:00"))
        #expect(local.text(Instant(iso8601: "2024-03-31T00:59:59Z")!) == "2024-03-31 01:59:59 +01:00")
        #expect(local.text(Instant(iso8601: "2024-03-31T01:00:00Z")!) == "2024-03-31 03:00:00 +02:00")
    }

    @Test func newYorkHasA23And25HourDay() throws {
        let local = LocalTime(zone: try Self.zone("America/New_York"))
        try Self.checkEverySampleOnOneDay(
            local, first: "2024-03-10", last: "2024-03-10",
            hours: ["2024-03-09": 24, "2024-03-10": 23, "2024-03-11": 24])
        try Self.checkEverySampleOnOneDay(
            local, first: "2024-11-03", last: "2024-11-03",
            hours: ["2024-11-02": 24, "2024-11-03": 25, "2024-11-04": 24])
        // 01:30 happens twice on 2024-11-03: first as EDT, then as EST; both on the 3rd.
        let first = try #require(Instant(iso8601: "2024-11-03T05:30:00Z"))
        let second = try #require(Instant(iso8601: "2024-11-03T06:30:00Z"))
        #expect(local.text(first) == "2024-11-03 01:30:00 -04:00")
        #expect(local.text(second) == "2024-11-03 01:30:00 -05:00")
        #expect(local.day(of: first) == local.day(of: second))
    }

    /// Kathmandu is UTC+05:45 all year: its days begin at 18:15 UTC.
    @Test func kathmanduDaysBeginAtAQuarterPast() throws {
        let local = LocalTime(zone: try Self.zone("Asia/Kathmandu"))
        try Self.checkEverySampleOnOneDay(
            local, first: "2024-11-25", last: "2024-11-25", hours: ["2024-11-24": 24, "2024-11-25": 24])
        let day = local.range(ofDay: try Self.day("2024-11-25"))
        #expect(day.lowerBound.iso8601.hasPrefix("2024-11-24T18:15:00"))
        #expect(local.text(day.lowerBound) == "2024-11-25 00:00:00 +05:45")
        #expect(local.named(day.lowerBound).hasSuffix("+05:45 Asia/Kathmandu"))
    }

    /// Lord Howe Island shifts by 30 minutes: a 24.5-hour day in April, a 23.5-hour day in October.
    @Test func lordHoweShiftsByHalfAnHour() throws {
        let local = LocalTime(zone: try Self.zone("Australia/Lord_Howe"))
        try Self.checkEverySampleOnOneDay(
            local, first: "2024-04-07", last: "2024-04-07", hours: ["2024-04-06": 24, "2024-04-07": 24.5])
        try Self.checkEverySampleOnOneDay(
            local, first: "2024-10-06", last: "2024-10-06", hours: ["2024-10-06": 23.5, "2024-10-07": 24])
        #expect(local.text(Instant(iso8601: "2024-04-06T14:00:00Z")!).hasSuffix("+11:00"))
        #expect(local.text(Instant(iso8601: "2024-04-06T16:00:00Z")!).hasSuffix("+10:30"))
    }

    /// A flight from Berlin to New York on 2024-11-20: the samples before landing are read in
    /// Berlin, those after in New York. The travel day runs from Berlin's midnight to New York's
    /// (30 hours), and still no sample is on two days or on none.
    @Test func aDeviceThatChangesZoneMidTripKeepsEachSampleOnOneDay() throws {
        let landing = try #require(Instant(iso8601: "2024-11-20T15:00:00Z"))
        let zones = DeviceTimeZones(reported: [
            .init(since: Instant(iso8601: "2024-11-01T00:00:00Z")!, zone: "Europe/Berlin"),
            .init(since: landing, zone: "America/New_York"),
        ])
        let local = LocalTime(zones, serverDefault: try Self.zone("Asia/Kathmandu"))
        try Self.checkEverySampleOnOneDay(
            local, first: "2024-11-19", last: "2024-11-21",
            hours: ["2024-11-19": 24, "2024-11-20": 30, "2024-11-21": 24])
        #expect(local.text(landing - .seconds(1)) == "2024-11-20 15:59:59 +01:00")
        #expect(local.text(landing) == "2024-11-20 10:00:00 -05:00")
        let day = local.range(ofDay: try Self.day("2024-11-20"))
        #expect(local.zoneNames(from: day.lowerBound, to: day.upperBound) == "Europe/Berlin, America/New_York")
        // Before the first report: the server's zone.
        #expect(local.zone(at: Instant(iso8601: "2024-10-01T00:00:00Z")!).identifier == "Asia/Kathmandu")
        // The operator's zone overrides every report.
        let overridden = LocalTime(
            DeviceTimeZones(override: "Asia/Kathmandu", reported: zones.reported), serverDefault: .gmt)
        #expect(overridden.text(landing) == "2024-11-20 20:45:00 +05:45")
    }

    /// The pages' scripts read local times from this table: one row per offset, DST included.
    @Test func theOffsetTableHasARowPerOffset() throws {
        let local = LocalTime(zone: try Self.zone("Europe/Berlin"))
        let table = local.offsetTable(
            from: Instant(iso8601: "2024-01-01T00:00:00Z")!, to: Instant(iso8601: "2025-01-01T00:00:00Z")!)
        #expect(table.map { $0[1] } == [60, 120, 60])
        #expect(table[1][0] == Instant(iso8601: "2024-03-31T01:00:00Z")!.milliseconds)
        #expect(table[2][0] == Instant(iso8601: "2024-10-27T01:00:00Z")!.milliseconds)
    }

    @Test(arguments: ["Mars/Olympus_Mons", "+08:00", "UTC+8", "GMT+5", "", "Europe/Berlin ", "../../etc/passwd"])
    func unknownZoneNamesAreRefusedByName(name: String) {
        #expect(throws: TimeZoneNameError.self) { try TimeZoneName.zone(name) }
        do {
            _ = try TimeZoneName.zone(name)
        } catch {
            #expect(error.description.contains("\"\(name)\""))
            #expect(error.description.contains("bgtrack time-zones"))
        }
    }

    @Test func aNameInTheWrongCaseGetsTheRightSpellingSuggested() {
        do {
            _ = try TimeZoneName.zone("america/new_york")
            Issue.record("a lower-case name was accepted")
        } catch {
            #expect(error.suggestion == "America/New_York")
        }
    }
}
