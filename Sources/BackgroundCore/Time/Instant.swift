/// A point in time, in whole milliseconds since the Unix epoch (UTC).
///
/// Every machine in this package takes `now` as an `Instant` instead of reading a clock, so the
/// simulator can drive a whole day in milliseconds and tests stay deterministic. Milliseconds are
/// exact in integer arithmetic, which matters for reproducible simulations and for the wire
/// format (`t` is epoch milliseconds).
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// An instant a number of seconds after the epoch, rounded to the millisecond.
    public init(seconds: Double) {
        self.milliseconds = Int64((seconds * 1000).rounded())
    }

    /// The epoch itself; the simulator starts its days here unless told otherwise.
    public static let epoch = Instant(milliseconds: 0)

    /// Seconds since the epoch.
    public var seconds: Double { Double(milliseconds) / 1000 }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(milliseconds: lhs.milliseconds + rhs.wholeMilliseconds)
    }

    public static func - (lhs: Instant, rhs: Duration) -> Instant {
        Instant(milliseconds: lhs.milliseconds - rhs.wholeMilliseconds)
    }

    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        .milliseconds(lhs.milliseconds - rhs.milliseconds)
    }

    public static func += (lhs: inout Instant, rhs: Duration) {
        lhs = lhs + rhs
    }

    public var description: String { "t+\(Duration.milliseconds(milliseconds).seconds)s" }
}

extension Duration {
    /// The duration truncated to whole milliseconds.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration in seconds as a `Double`, for reports and energy arithmetic.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
