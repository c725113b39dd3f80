/// The one set of value rules a sample must pass, whoever judges it: the phone's sampling machine
/// (for fixes) and store (`Sample.check(receivedAt:)` in LocationLog), the server's parsers for
/// every protocol and the importers (`SampleRules` in TrackServer), the simulated server and the
/// in-memory test server. No other code holds these ranges.
///
/// It lives here in BackgroundCore, below LocationLog and the server, because the sampling machine
/// applies the same ranges to fixes and BackgroundCore must not depend on LocationLog.
///
/// The rules are checked in a fixed order and the first broken one is reported, so every judge
/// names the same rule for the same sample.
public enum SampleRuleSet {
    /// Samples before 2000-01-01 come from a phone with a reset clock.
    public static let earliest = Instant(milliseconds: 946_684_800_000)
    /// How far ahead of the receiver's clock a sample may be (phones' clocks drift a little).
    public static let futureTolerance: Duration = .seconds(futureToleranceMilliseconds / 1000)
    private static let futureToleranceMilliseconds: Int64 = 24 * 3600 * 1000
    public static let latitude: ClosedRange<Double> = -90...90
    public static let longitude: ClosedRange<Double> = -180...180
    /// Horizontal accuracy in metres. 0 is allowed and means *unknown* (issue 23): it is what
    /// clients send when they have no accuracy (Traccar Client, OwnTracks), and the server stores
    /// it as unknown in every protocol. A negative radius is refused.
    public static let accuracy: ClosedRange<Double> = 0...1_000_000
    /// Vertical accuracy in metres; 0 is unknown, as for ``accuracy``.
    public static let verticalAccuracy: ClosedRange<Double> = 0...1_000_000
    /// Metres above sea level: the Dead Sea shore to a high-altitude balloon, with margin.
    public static let altitude: ClosedRange<Double> = -12_000...100_000
    /// Metres per second: a jet airliner is ~250, so 2000 is only a broken value.
    public static let speed: ClosedRange<Double> = 0...2_000
    /// Degrees clockwise from true north.
    public static let course: ClosedRange<Double> = 0...360
    public static let battery: ClosedRange<Double> = 0...1
    /// The smallest `seq`. The phone's store numbers its samples from 1 (`sync_state.next_seq`
    /// starts at 1 and only grows), and the native route has always refused 0: the phone's own
    /// check (`seq` 1 or more) ran before the server's (which only refused negatives). So 1.
    public static let firstSeq: Int64 = 1

    /// Every rule, as a receiver whose clock reads `now` judges the values; `seq` is `nil` for
    /// protocols without one (OwnTracks, Overland, OsmAnd, imports) and for fixes.
    ///
    /// - Throws: the first broken rule, in the order position, time, accuracy, vertical accuracy,
    ///   altitude, speed, course, battery, seq.
    public static func check(
        _ values: SampleValues, seq: Int64? = nil, receivedAt now: Instant
    ) throws(SampleRuleViolation) {
        try checkPosition(latitude: values.latitude, longitude: values.longitude)
        try checkTime(values.time, receivedAt: now)
        try checkMeasurements(values, seq: seq)
    }

    /// Every rule except the time rules, which need the receiver's clock: what a sample decoded
    /// from the wire is checked against before it reaches a receiver (`WireSample.sample()`).
    public static func checkValues(_ values: SampleValues, seq: Int64? = nil) throws(SampleRuleViolation) {
        try checkPosition(latitude: values.latitude, longitude: values.longitude)
        try checkMeasurements(values, seq: seq)
    }

    /// A position in degrees: finite, latitude -90…90, longitude -180…180, and not exactly 0,0.
    public static func checkPosition(latitude: Double, longitude: Double) throws(SampleRuleViolation) {
        guard latitude.isFinite else {
            throw SampleRuleViolation(.latitude, field: "lat", "latitude \(latitude) is not a finite number")
        }
        guard longitude.isFinite else {
            throw SampleRuleViolation(.longitude, field: "lon", "longitude \(longitude) is not a finite number")
        }
        guard Self.latitude.contains(latitude) else {
            throw SampleRuleViolation(.latitude, field: "lat", "latitude \(latitude) is outside -90…90")
        }
        guard Self.longitude.contains(longitude) else {
            throw SampleRuleViolation(.longitude, field: "lon", "longitude \(longitude) is outside -180…180")
        }
        if latitude == 0, longitude == 0 {
            throw SampleRuleViolation(
                .nullIsland, field: "lat",
                "0,0 is not a real position (a fix without coordinates); drop it on the phone")
        }
    }

    /// Not before 2000-01-01, and not more than ``futureTolerance`` after the receiver's clock.
    public static func checkTime(_ time: Instant, receivedAt now: Instant) throws(SampleRuleViolation) {
        if time < earliest {
            throw SampleRuleViolation(
                .tooEarly, field: "t", "time \(time.milliseconds) ms is before 2000-01-01; the phone's clock is wrong")
        }
        // Subtracted with overflow reported: a hostile time or clock near Int64's ends must
        // be judged, not trap (`now + futureTolerance` overflows for a clock near the end).
        let (ahead, overflow) = time.milliseconds.subtractingReportingOverflow(now.milliseconds)
        if overflow ? time > now : ahead > futureToleranceMilliseconds {
            throw SampleRuleViolation(
                .tooFarAhead, field: "t",
                "time \(time.milliseconds) ms is more than a day after the server's clock; the phone's clock is wrong")
        }
    }

    /// The range rule of each measurement (``SampleValues/Field/measurements``), with its code,
    /// name and unit for the message; `nil` for a field without one.
    public static func rule(
        for field: SampleValues.Field
    ) -> (code: SampleRuleViolation.Code, name: String, unit: String, range: ClosedRange<Double>)? {
        guard let range = range(for: field) else { return nil }
        return switch field {
        case .time, .latitude, .longitude, .charging: nil
        case .accuracy: (.accuracy, "accuracy", " m", range)
        case .verticalAccuracy: (.verticalAccuracy, "vertical accuracy", " m", range)
        case .altitude: (.altitude, "altitude", " m", range)
        case .speed: (.speed, "speed", " m/s", range)
        case .course: (.course, "course", "°", range)
        case .battery: (.battery, "battery", "", range)
        }
    }

    /// Each measurement's range: what every sample is checked against, apart from the words
    /// ``rule(for:)`` adds for a message (building those for each field of each sample cost the
    /// native parser 4 % of its time).
    public static func range(for field: SampleValues.Field) -> ClosedRange<Double>? {
        switch field {
        case .time, .latitude, .longitude, .charging: nil
        case .accuracy: accuracy
        case .verticalAccuracy: verticalAccuracy
        case .altitude: altitude
        case .speed: speed
        case .course: course
        case .battery: battery
        }
    }

    private static func checkMeasurements(_ values: SampleValues, seq: Int64?) throws(SampleRuleViolation) {
        for field in SampleValues.Field.measurements {
            // `contains` is false for NaN, so a NaN breaks the rule like any value out of range.
            // The range alone first: the rule's words are built only for a broken one.
            guard let value = values.measurement(field), let range = range(for: field), !range.contains(value),
                let rule = rule(for: field)
            else { continue }
            throw SampleRuleViolation(
                rule.code, field: field.wireKey,
                "\(rule.name) \(value)\(rule.unit) is outside \(bound(rule.range.lowerBound))…\(bound(rule.range.upperBound))"
            )
        }
        if let value = seq, value < firstSeq {
            throw SampleRuleViolation(
                .seq, field: "seq", "seq \(value) is below 1; the phone numbers its samples from 1")
        }
    }

    /// A range's bound as the messages write it: whole numbers without a fraction (`0…1000000`).
    private static func bound(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
