/// Why the sampling machine refused a fix. Each case renders a message that names the value and
/// the rule, for the diagnostics log.
///
/// The value ranges (position, 0,0, time, accuracy, altitude, speed, course) are the sample rules
/// every receiver applies (``SampleRuleSet``), reported as ``breaksRule(_:)``; the other cases are
/// about fixes only: a provider's non-finite value, a radius that is not positive (a fix always
/// has one; 0 means "unknown" only on the wire), the sampling accuracy limit, staleness, and a fix
/// from more than a minute ahead.
public enum FixRejection: Hashable, Sendable, CustomStringConvertible {
    /// The fix's values break a sample rule (out of range, exactly 0,0, before 2000, …).
    case breaksRule(SampleRuleViolation)
    /// NaN or infinite in a named field.
    case notFinite(field: String)
    case accuracyInvalid(Double)
    case tooInaccurate(accuracy: Double, limit: Double)
    case stale(age: Duration, limit: Duration)
    case inTheFuture(ahead: Duration)

    public var description: String {
        switch self {
        case .breaksRule(let violation):
            return violation.message
        case .notFinite(let field):
            return "\(field) is not a finite number"
        case .accuracyInvalid(let value):
            return "horizontal accuracy \(value) m is not a positive radius"
        case .tooInaccurate(let accuracy, let limit):
            return "horizontal accuracy \(accuracy) m is worse than the \(limit) m limit"
        case .stale(let age, let limit):
            return "fix is \(Int(age.seconds)) s old, older than the \(Int(limit.seconds)) s limit (2 × interval)"
        case .inTheFuture(let ahead):
            return "fix is \(Int(ahead.seconds)) s in the future; the device clock or the provider is wrong"
        }
    }
}
