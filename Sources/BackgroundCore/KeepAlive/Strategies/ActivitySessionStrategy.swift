/// `activity-session`: iOS 17+ standard location updates held by a `CLBackgroundActivitySession`
/// (not `CLLocationUpdate.liveUpdates()`: the shell drives `CLLocationManager`), which keeps a
/// When-In-Use app "in use" in the background. Before iOS 17 the session does not exist and the
/// strategy runs plain standard updates.
struct ActivitySessionStrategy: KeepAliveStrategy {
    var name: StrategyName { .activitySession }

    func slotFixAccuracy(in context: StrategyContext) -> LocationAccuracy? { nil }

    func tracksInBackground(whenInUse environment: KeepAliveEnvironment) -> Bool { true }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action] {
        switch event {
        case .launched, .woke, .enteredForeground:
            let updates = KeepAliveMachine.Action.startLocationUpdates(
                .init(accuracy: .best, pausesAutomatically: false))
            guard context.environment.hasBackgroundActivitySession else {
                return [.log("CLBackgroundActivitySession needs iOS 17; using standard updates"), updates]
            }
            return [.beginActivitySession, updates]
        case .environmentChanged(let environment) where context.isForeground && environment.authorization == .whenInUse:
            // Permission narrowed while the app is on screen: hold it "in use" from now on.
            return environment.hasBackgroundActivitySession ? [.beginActivitySession] : []
        default:
            return []
        }
    }
}
