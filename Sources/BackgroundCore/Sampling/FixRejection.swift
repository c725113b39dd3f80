/// Why the sampling machine refused a fix. Each case renders a message that names the value and
/// the rule, for the diagnostics log.
public enum FixRejection: Hashable, Sendable, CustomStringConvertible {
    /// Exactly 0,0: "null island", the classic uninitialised-fix value.
    case nullIsland
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    /// NaN or infinite in a named field.
    case notFinite(field: String)
    case accuracyInvalid(Double)
    case tooInaccurate(accuracy: Double, limit: Double)
    case stale(age: Duration, limit: Duration)
    case inTheFuture(ahead: Duration)

    public var description: String {
        switch self {
        case .nullIsland:
            return "fix at exactly 0,0 is a placeholder, not a position"
        case .latitudeOutOfRange(let value):
            return "latitude \(value) is outside -90…90"
        case .longitudeOutOfRange(let value):
            return "longitude \(value) is outside -180…180"
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
