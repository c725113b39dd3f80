/// One way of keeping the app working in the background. Strategies are small state machines; the
/// `KeepAliveMachine` around them does what they all share (sampling slots, the task ledger,
/// expiry, notices about location permission, stopping).
public protocol KeepAliveStrategy: Sendable {
    var name: StrategyName { get }

    /// The accuracy of the one fix requested when a sampling slot opens and the app is running;
    /// `nil` when continuous updates already deliver fixes.
    func slotFixAccuracy(in context: StrategyContext) -> LocationAccuracy?

    /// Whether fixes from `source` become samples; a strategy whose continuous updates only keep
    /// the app runnable (coarse, cell-level) turns them off so they do not flood the diagnostics.
    func samplesFixes(from source: FixSource) -> Bool

    /// Whether the strategy keeps tracking in the background with When-In-Use permission (so the
    /// "choose Always" notice would be false); `false` by default.
    func tracksInBackground(whenInUse environment: KeepAliveEnvironment) -> Bool

    /// Reacts to one event. The machine has already applied the event to the context (ledger,
    /// sampling, environment) before calling this.
    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action]
}

extension KeepAliveStrategy {
    public func slotFixAccuracy(in context: StrategyContext) -> LocationAccuracy? { .best }
    public func samplesFixes(from source: FixSource) -> Bool { true }
    public func tracksInBackground(whenInUse environment: KeepAliveEnvironment) -> Bool { false }
}
