/// What the motion coprocessor says the user is doing (`CMMotionActivity`), as the keep-alive
/// machines see it: one kind and how sure the coprocessor is.
///
/// The shell maps Core Motion's flags onto one kind (a car stopped at a light reports both
/// `automotive` and `stationary`: the moving kind wins, the user is on a trip).
public struct MotionActivity: Hashable, Sendable {
    /// The kind of motion, most specific first.
    public enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
        case stationary, walking, running, cycling, automotive, unknown

        /// Whether the user is on the move (walking, running, cycling or in a vehicle).
        public var isMoving: Bool {
            switch self {
            case .walking, .running, .cycling, .automotive: return true
            case .stationary, .unknown: return false
            }
        }
    }

    /// `CMMotionActivityConfidence`.
    public enum Confidence: Int, Hashable, Sendable, Comparable, Codable {
        case low, medium, high

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var kind: Kind
    public var confidence: Confidence

    public init(_ kind: Kind, confidence: Confidence) {
        self.kind = kind
        self.confidence = confidence
    }

    /// A moving kind the coprocessor is at least fairly sure of: the user has set off.
    public var saysMoving: Bool { kind.isMoving && confidence >= .medium }
}
