/// What a strategy may read and change while it handles one event: the ledger, the sampling
/// machine's schedule, the environment and the app's state. Owned by `KeepAliveMachine`.
public struct StrategyContext: Sendable {
    public internal(set) var now: Instant
    public internal(set) var environment: KeepAliveEnvironment
    public internal(set) var isForeground: Bool
    /// Why the app is running in the background right now, if it was launched or woken for a reason.
    public internal(set) var wakeReason: LaunchReason?
    public internal(set) var sampling: SamplingMachine
    public internal(set) var lastAcceptedFix: LocationFix?
    public internal(set) var ledger = BackgroundTaskLedger()

    init(now: Instant, environment: KeepAliveEnvironment, sampling: SamplingMachine) {
        self.now = now
        self.environment = environment
        self.isForeground = false
        self.sampling = sampling
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
