public import BackgroundCore

extension Sample {
    /// Checks this sample against every sample rule, as a receiver whose clock reads `now` would:
    /// the simulated server, the in-memory test server and the simulator's peers call it, and the
    /// real server applies the same ``SampleRuleSet`` to what it parses.
    ///
    /// - Throws: the first broken rule, naming the field, its value and the allowed range.
    public func check(receivedAt now: Instant) throws(SampleRuleViolation) {
        try SampleRuleSet.check(values, seq: seq, receivedAt: now)
    }

    /// Checks a position in degrees: finite, latitude -90…90, longitude -180…180, not 0,0.
    public static func checkPosition(latitude: Double, longitude: Double) throws(SampleRuleViolation) {
        try SampleRuleSet.checkPosition(latitude: latitude, longitude: longitude)
    }
}
