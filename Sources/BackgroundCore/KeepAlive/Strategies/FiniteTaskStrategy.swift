/// Seed 004 (`finite-task`): on entering the background, begin one task and work until it
/// expires; with `renewOnExpiry` (seed 000's friend's demo), begin another in the expiry handler.
///
/// The renewal buys nothing on iOS 7+: the budget belongs to the app, not to the task, so the new
/// task starts with the time the old one had left (the simulator shows it).
struct FiniteTaskStrategy: KeepAliveStrategy {
    let renewOnExpiry: Bool

    var name: StrategyName { renewOnExpiry ? .renewOnExpiry : .finiteTask }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action] {
        switch event {
        case .enteredBackground:
            return context.handOffTask("finish-work")
        case .enteredForeground:
            return context.endAllTasks()
        case .taskExpiring where renewOnExpiry && !context.isForeground:
            return context.beginTask("renewed-work")
        default:
            return []
        }
    }
}
