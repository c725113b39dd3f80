/// What a strategy may read and change while it handles one event: the ledger, the sampling
/// machine's schedule, the environment and the app's state. Owned by `KeepAliveMachine`.
public struct StrategyContext: Sendable {
    public internal(set) var now: Instant
    public internal(set) var environment: KeepAliveEnvironment
    public internal(set) var isForeground: Bool
    /// Why the app is running in the background right now, if it was launched or woken for a
    /// reason; a refresh or push wake's reason lasts until that wake's fix is recorded.
    public internal(set) var wakeReason: LaunchReason?
    public internal(set) var sampling: SamplingMachine
    public internal(set) var lastAcceptedFix: LocationFix?
    public internal(set) var ledger = BackgroundTaskLedger()
    /// When a departure fix was last asked for and not yet delivered (see `requestDepartureFix`).
    public internal(set) var departureRequested: Instant?

    init(now: Instant, environment: KeepAliveEnvironment, sampling: SamplingMachine) {
        self.now = now
        self.environment = environment
        self.isForeground = false
        self.sampling = sampling
    }

    /// Asks for a fix now because the user set off (the motion coprocessor said so). The next
    /// one-shot fix taken from now on becomes a sample even when its slot has one
    /// (`SamplingMachine.Event.departure`, trigger `motion`), once per slot. Empty when sampling
    /// has not started, the slot already took one, or one asked for under a minute ago is still
    /// awaited.
    public mutating func requestDepartureFix(_ accuracy: LocationAccuracy) -> [KeepAliveMachine.Action] {
        guard sampling.acceptsDeparture(at: now) else { return [] }
        if let asked = departureRequested, now - asked < Self.departureWait { return [] }
        departureRequested = now
        return [.requestFix(accuracy)]
    }

    /// How long a departure fix is awaited; a one-shot fix that comes later is an ordinary one.
    static let departureWait: Duration = .seconds(60)

    /// Whether `fix`, delivered by a one-shot request, answers the awaited departure request
    /// (taken after it was asked for, within `departureWait`); answered or not, the request ends.
    mutating func takeDepartureRequest(for fix: LocationFix) -> Bool {
        guard let asked = departureRequested else { return false }
        departureRequested = nil
        return fix.timestamp >= asked && fix.timestamp - asked <= Self.departureWait
    }

    /// Begins a named background task.
    public mutating func beginTask(_ name: String) -> [KeepAliveMachine.Action] {
        ledger.begin(name: name, at: now).1.map(KeepAliveMachine.Action.task)
    }

    /// Begins a new master task and ends every older one (seed 003's intent, without its leak).
    public mutating func handOffTask(_ name: String) -> [KeepAliveMachine.Action] {
        ledger.handOff(name: name, at: now).1.map(KeepAliveMachine.Action.task)
    }

    /// Ends every open background task.
    public mutating func endAllTasks() -> [KeepAliveMachine.Action] {
        ledger.endAll(at: now).map(KeepAliveMachine.Action.task)
    }

    /// Schedules `id` to fire `delay` from now.
    public func schedule(_ id: TimerID, after delay: Duration) -> KeepAliveMachine.Action {
        .scheduleTimer(id, at: now + delay)
    }
}
