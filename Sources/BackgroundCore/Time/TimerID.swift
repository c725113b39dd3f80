/// Names a timer a machine asked for. Timers are data: the machine emits `.scheduleTimer(id, at:)`
/// and later receives `.timerFired(id)`; the iOS shell backs them with `DispatchSourceTimer`
/// (seed 003's advice over `NSTimer`), the simulator with its event queue.
public struct TimerID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral value: String) { self.name = value }

    public var description: String { name }
}
