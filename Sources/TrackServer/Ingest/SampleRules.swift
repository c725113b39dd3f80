import BackgroundCore

/// The sample rules (``SampleRuleSet``, shared with the phone, the simulated server and the test
/// servers) as the server applies them to a parsed sample: a broken rule becomes the sample's
/// ``SampleProblem``, labelled with the sample's place in the request.
struct SampleRules: Sendable {
    /// How far ahead of the server clock a sample or a gap may be.
    var futureTolerance: Duration { SampleRuleSet.futureTolerance }

    /// - Parameters:
    ///   - label: "sample 3", built only for a message (most samples pass every check).
    func check(_ sample: TrackSample, label: @autoclosure () -> String, now: Instant) throws(SampleProblem) {
        do {
            try SampleRuleSet.check(sample.values, seq: sample.seq, receivedAt: now)
        } catch {
            throw SampleProblem(label: label(), error)
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
    /// An accuracy (horizontal or vertical) as stored: 0 m is no real fix's accuracy but what clients send when
    /// they have none (Traccar Client, OwnTracks), so it is unknown (`nil`) in every protocol.
    var knownAccuracy: Double? { flatMap { $0 == 0 ? nil : $0 } }
}
