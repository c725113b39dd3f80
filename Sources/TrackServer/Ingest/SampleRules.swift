import BackgroundCore

/// The value checks every protocol shares, so a sample is judged the same whoever sent it.
struct SampleRules: Sendable {
    /// Samples before 2000-01-01 come from a phone with a reset clock.
    static let earliest = Instant(milliseconds: 946_684_800_000)
    /// How far ahead of the server clock a sample may be (phones' clocks drift a little).
    var futureTolerance: Duration = .seconds(24 * 3600)

    /// - Parameters:
    ///   - label: "sample 3", built only for a message (most samples pass every check).
    func check(_ sample: IngestSample, label: @autoclosure () -> String, now: Instant) throws(SampleProblem) {
        func fail(_ field: String, _ text: String) -> SampleProblem {
            SampleProblem(message: "\(label()): field \"\(field)\" \(text)")
        }
        guard (-90...90).contains(sample.latitude) else {
            throw fail("lat", "latitude \(sample.latitude) is outside -90…90")
        }
        guard (-180...180).contains(sample.longitude) else {
            throw fail("lon", "longitude \(sample.longitude) is outside -180…180")
        }
        if sample.latitude == 0, sample.longitude == 0 {
            throw fail("lat", "0,0 is not a real position (a fix without coordinates); drop it on the phone")
        }
        if sample.time < Self.earliest {
            throw fail("t", "time \(sample.time.milliseconds) ms is before 2000-01-01; the phone's clock is wrong")
        }
        if sample.time > now + futureTolerance {
            throw fail("t", "time \(sample.time.milliseconds) ms is more than a day after the server's clock")
        }
        if let value = sample.accuracy, !(0...1_000_000).contains(value) {
            throw fail("acc", "accuracy \(value) m is outside 0…1000000")
        }
        if let value = sample.altitude, !(-12_000...100_000).contains(value) {
            throw fail("alt", "altitude \(value) m is outside -12000…100000")
        }
        if let value = sample.speed, !(0...2_000).contains(value) {
            throw fail("speed", "speed \(value) m/s is outside 0…2000")
        }
        if let value = sample.course, !(0...360).contains(value) {
            throw fail("course", "course \(value)° is outside 0…360")
        }
        if let value = sample.battery, !(0...1).contains(value) {
            throw fail("battery", "battery \(value) is outside 0…1")
        }
        if let value = sample.seq, value < 0 {
            throw fail("seq", "seq \(value) is negative")
        }
    }
}

extension Optional<Double> {
    /// The value, or `nil` for the negative sentinels clients send for "unknown" (CoreLocation's
    /// speed and course -1, iOS's battery level -1, Overland's invalid accuracy): stored as
    /// unknown rather than rejected, because OwnTracks and Overland delete what they sent anyway.
    var unlessUnknown: Double? { flatMap { $0 < 0 ? nil : $0 } }
}

extension Optional<Double> {
    /// A horizontal accuracy as stored: 0 m is no real fix's accuracy but what clients send when
    /// they have none (Traccar Client, OwnTracks), so it is unknown (`nil`) in every protocol.
    var knownAccuracy: Double? { flatMap { $0 == 0 ? nil : $0 } }
}
