/// Seed 003 (`fix-and-task-chain`): every 120 s take one fix and begin a new master task, ending
/// the older one. The seed's version leaked tasks; the ledger's hand-off cannot.
struct FixAndTaskChainStrategy: KeepAliveStrategy {
    static let chain: TimerID = "fix-and-task-chain"

    var name: StrategyName { .fixAndTaskChain }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action] {
        switch event {
        case .enteredBackground:
            return context.handOffTask("chain") + [context.schedule(Self.chain, after: .seconds(120))]
        case .timerFired(Self.chain) where !context.isForeground:
            return context.handOffTask("chain") + [
                .requestFix(.best), context.schedule(Self.chain, after: .seconds(120)),
            ]
        case .enteredForeground:
            return context.endAllTasks() + [.cancelTimer(Self.chain)]
        default:
            return []
        }
    }
}
