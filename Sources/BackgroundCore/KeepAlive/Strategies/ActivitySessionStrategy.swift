/// `activity-session`: iOS 17+ live updates held by a `CLBackgroundActivitySession`, which keeps a
/// When-In-Use app "in use" in the background. Before iOS 17 the session does not exist and the
/// strategy runs plain standard updates.
struct ActivitySessionStrategy: KeepAliveStrategy {
    var name: StrategyName { .activitySession }

    func slotFixAccuracy(in context: StrategyContext) -> LocationAccuracy? { nil }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveEffect] {
        switch event {
        case .launched, .woke:
            guard context.environment.hasBackgroundActivitySession else {
                return [
                    .log("CLBackgroundActivitySession needs iOS 17; using standard updates"),
                    .startLocationUpdates(.init(accuracy: .best)),
                ]
            }
            return [.beginActivitySession, .startLocationUpdates(.init(accuracy: .best))]
        default:
            return []
        }
    }
}
