import BackgroundCore

/// Why a stored point is left out of the drawn track (issue 25 item 5). Flagged points are kept,
/// exported with their flag and shown on the map as excluded; nothing is deleted, and
/// `bgtrack cleanup --recheck` re-evaluates every flag with the rules in force.
public enum SampleFlag: Int, CaseIterable, Sendable, Hashable {
    /// Not flagged: drawn.
    case none = 0
    /// At exactly (0, 0), "null island": a receiver's placeholder, not a place.
    case nullIsland = 1
    /// Horizontal accuracy worse than the rule's limit.
    case inaccurate = 2
    /// Reached from its neighbour and left back to the next one at an impossible speed.
    case speedJump = 3

    /// The name exports and the map use.
    public var name: String {
        switch self {
        case .none: ""
        case .nullIsland: "null-island"
        case .inaccurate: "inaccurate"
        case .speedJump: "speed-jump"
        }
    }
}

/// The server's clean-up rules (`bgtrack serve --flag-…`), tunable and reversible: changing them
/// and restarting the server (or `bgtrack cleanup --recheck`) re-evaluates every stored point.
public struct CleanupRules: Hashable, Sendable {
    /// Flag points at exactly (0, 0).
    public var nullIsland = true
    /// Flag points whose accuracy is worse than this many metres; `nil` turns the rule off.
    public var maximumAccuracy: Double? = 10_000
    /// Flag a point reached and left at more than this many metres per second when its two
    /// neighbours are within it of each other (an outlier that jumps away and back, not a flight);
    /// `nil` turns the rule off.
    public var maximumSpeed: Double? = 300

    public init(nullIsland: Bool = true, maximumAccuracy: Double? = 10_000, maximumSpeed: Double? = 300) {
        self.nullIsland = nullIsland
        self.maximumAccuracy = maximumAccuracy
        self.maximumSpeed = maximumSpeed
    }

    /// No rule: every point is drawn.
    public static let none = CleanupRules(nullIsland: false, maximumAccuracy: nil, maximumSpeed: nil)

    /// The rules and the gap threshold as one line: the stores remember it and redo every day's
    /// levels and flags when it changes.
    public func fingerprint(maximumGap: Duration) -> String {
        "null-island=\(nullIsland) max-accuracy=\(maximumAccuracy.map { "\($0)" } ?? "off") "
            + "max-speed=\(maximumSpeed.map { "\($0)" } ?? "off") gap-ms=\(maximumGap.wholeMilliseconds)"
    }

    /// The flag of a point on its own (without its neighbours), `.none` when it passes.
    public func pointFlag(latitude: Double, longitude: Double, accuracy: Double?) -> SampleFlag {
        if nullIsland, latitude == 0, longitude == 0 { return .nullIsland }
        if let maximumAccuracy, let accuracy, !(accuracy <= maximumAccuracy) { return .inaccurate }
        return .none
    }
}
