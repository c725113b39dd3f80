import BackgroundCore
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
}
