/// Names one background task the ledger began. Minted only by the ledger, so an end for a token
/// it never issued is caught rather than passed to the system (seed 003 ended
/// `UIBackgroundTaskInvalid` instead of its real task and leaked it).
public struct BackgroundTaskToken: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    package init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "task#\(rawValue)" }
}
