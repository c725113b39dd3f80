import BackgroundCore
import Foundation
import LocationLog
import Testing

/// ISO 8601 times: what the phone logs and what clients send (`Instant+ISO8601.swift`).
@Suite struct ISO8601Tests {
    @Test func iso8601RoundTrips() {
        let instant = Instant(milliseconds: 1_732_240_000_123)
        #expect(instant.iso8601 == "2024-11-22T01:46:40.123Z")
        #expect(Instant(iso8601: "2024-11-22T01:46:40.123Z") == instant)
        #expect(Instant(iso8601: "2024-11-22T09:46:40.123+08:00") == instant)
        #expect(Instant(iso8601: "2024-11-22T01:46:40Z") == Instant(milliseconds: 1_732_240_000_000))
        #expect(Instant(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(Instant(iso8601: "yesterday") == nil)
    }

    @Test func iso8601AcceptsTheFormsClientsSendAndNothingElse() {
        let instant = Instant(milliseconds: 1_732_240_000_123)
        #expect(Instant(iso8601: "2024-11-22 01:46:40.123") == instant, "space, no zone: UTC")
        #expect(Instant(iso8601: "2024-11-22t01:46:40,123z") == instant, "lower case, decimal comma")
        #expect(Instant(iso8601: "2024-11-22T09:46:40.123+0800") == instant, "offset without colon")
        #expect(Instant(iso8601: "2024-11-21T20:46:40.123-05:00") == instant)
        for bad in [
            "2024-11-22T01:46:40+08", "2024-11-22T01:46:40+25:00", "2024-13-22T01:46:40Z", "2024-11-22T01:46:40ZZ",
            "2024-11-22T01:46:40.Z", "2024-11-22X01:46:40Z", "", String(repeating: "9", count: 100_000),
        ] {
            #expect(Instant(iso8601: bad) == nil, "\(bad.prefix(40))")
        }
    }

    /// The digit-by-digit writer against Foundation's formatter, on 20,000 instants from 1900 to
    /// 2100 and offsets in quarter hours from -12:00 to +14:00, then the edges it hands to its
    /// slow path (years before 0 or after 9999) and an offset of less than a minute.
    @Test func iso8601WritesWhatFoundationWrites() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let first: Int64 = -2_208_988_800_000  // 1900-01-01
        let span: Int64 = 6_311_433_600_000  // to 2100-01-01
        for _ in 0..<20_000 {
            let instant = Instant(milliseconds: first + Int64(next() % UInt64(span)))
            let offset = (Int(next() % 105) - 48) * 900
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            let date = Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000)
            let expected = formatter.string(from: date)
            #expect(instant.iso8601(offsetSeconds: offset) == expected)
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            #expect(instant.iso8601 == formatter.string(from: date).dropLast(6) + "Z")
        }
        #expect(Instant(milliseconds: 253_402_300_799_999).iso8601 == "9999-12-31T23:59:59.999Z")
        #expect(Instant(milliseconds: 253_402_300_800_000).iso8601 == "10000-01-01T00:00:00.000Z")
        #expect(Instant(milliseconds: -62_167_219_200_000).iso8601 == "0000-01-01T00:00:00.000Z")
        #expect(Instant(milliseconds: -62_167_219_200_001).iso8601 == "-0001-12-31T23:59:59.999Z")
        #expect(Instant(milliseconds: 0).iso8601(offsetSeconds: -30) == "1969-12-31T23:59:30.000-00:00")
        #expect(Instant(milliseconds: 0).iso8601(offsetSeconds: 20_700) == "1970-01-01T05:45:00.000+05:45")
        #expect(Instant(milliseconds: 0).iso8601(offsetSeconds: 360_000) == "1970-01-05T04:00:00.000+100:00")
    }
}
