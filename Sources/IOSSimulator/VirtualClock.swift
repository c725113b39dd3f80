public import BackgroundCore

/// The simulated iPhone's clock: it moves only when the simulation advances it.
public struct VirtualClock: Sendable {
    public private(set) var now: Instant

    public init(start: Instant = .epoch) {
        self.now = start
    }

    /// Moves the clock forward to `instant`; moving backwards is a simulator bug.
    public mutating func advance(to instant: Instant) {
        precondition(instant >= now, "virtual time cannot run backwards (\(now) → \(instant))")
        now = instant
    }
}
