/// Seed 000 (`location-refresh`): hold a task and, every 60 s, start location updates for 10 s
/// and begin a fresh task, hoping the location activity refreshes the background time.
///
/// It does not on iOS 7+: location keeps the process runnable only while it runs, and the task
/// budget is per app.
struct LocationRefreshStrategy: KeepAliveStrategy {
    static let refresh: TimerID = "location-refresh"
    static let pause: TimerID = "location-refresh-stop"

    var name: StrategyName { .locationRefresh }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action] {
        switch event {
        case .enteredBackground:
            return context.handOffTask("location-refresh") + [context.schedule(Self.refresh, after: .seconds(60))]
        case .timerFired(Self.refresh) where !context.isForeground:
            return context.handOffTask("location-refresh") + [
                // The seed never set the property, so iOS's default (pause when stationary) applies.
                .startLocationUpdates(.init(accuracy: .best, pausesAutomatically: true)),
                context.schedule(Self.pause, after: .seconds(10)),
                context.schedule(Self.refresh, after: .seconds(60)),
            ]
        case .timerFired(Self.pause):
            return [.stopLocationUpdates]
        case .enteredForeground:
            return context.endAllTasks() + [.cancelTimer(Self.refresh), .cancelTimer(Self.pause), .stopLocationUpdates]
        default:
            return []
        }
    }
}
