/// A fix the sampling machine accepted: what the shell stores as a sample, with the slot it fills.
///
/// The same value travels from `SamplingMachine.Action.accept` through
/// `KeepAliveMachine.Action.recordSample` to the shell that writes the store, so the slot the
/// sampling machine decided on is not dropped on the way.
public struct AcceptedFix: Hashable, Sendable {
    public var fix: LocationFix
    /// What delivered the fix (a slot timer, a significant change, a visit…).
    public var trigger: SampleTrigger
    /// Whether the app was on screen when the fix came.
    public var state: SampleAppState
    /// The sampling slot the fix fills (see `SamplingMachine.slot(containing:)`).
    public var slot: Int64

    public init(_ fix: LocationFix, trigger: SampleTrigger, state: SampleAppState, slot: Int64) {
        self.fix = fix
        self.trigger = trigger
        self.state = state
        self.slot = slot
    }
}
