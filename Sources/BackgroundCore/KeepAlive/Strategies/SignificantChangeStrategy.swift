/// `significant-change`: the significant-change service plus visits, Apple's low-power path. The
/// system wakes or relaunches the app (Always only) after about 500 m of movement, at most every
/// 5 minutes, and on arrivals and departures; nothing runs in between.
struct SignificantChangeStrategy: KeepAliveStrategy {
    var name: StrategyName { .significantChange }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action] {
        switch event {
        case .launched:
            // Both services must be started again after every launch, including relaunches.
            return [.startSignificantChanges, .startVisits]
        default:
            return []
        }
    }
}
