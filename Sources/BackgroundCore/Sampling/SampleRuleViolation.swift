/// A sample (or a fix, or a wire sample) breaks one of the rules of ``SampleRuleSet``.
///
/// The one error type for a refused sample on the phone's side of the wire: the sampling machine
/// wraps it in ``FixRejection/breaksRule(_:)``, LocationLog throws it from `Sample.check` and
/// `WireSample.sample()`, and the server turns it into its per-sample problem with the sample's
/// label in front. The ``code`` says which rule, so two judges can be compared without parsing
/// messages; the ``message`` names the value and the allowed range.
public struct SampleRuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which rule was broken.
    public enum Code: String, CaseIterable, Hashable, Sendable {
        case latitude, longitude, nullIsland, tooEarly, tooFarAhead, accuracy, verticalAccuracy, altitude, speed,
            course, battery, seq
        /// Wire decoding (LocationLog): the id is not a UUID, an unknown trigger or app state.
        case id, trigger, state
        /// A gap interval of a version 2 batch is unusable.
        case gap
    }

    public var code: Code
    /// The field's name on the wire (`lat`, `t`, `acc`, …).
    public var field: String
    /// What is wrong, naming the value and what is allowed, e.g. `latitude 91.2 is outside -90…90`.
    public var message: String

    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { message }
}
