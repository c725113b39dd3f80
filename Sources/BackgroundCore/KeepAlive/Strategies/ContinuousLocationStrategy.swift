/// `continuous-location`: best-accuracy location updates all the time, background allowed, never
/// paused. Keeps an Always app running all day, at the price of the GPS never sleeping.
struct ContinuousLocationStrategy: KeepAliveStrategy {
    var name: StrategyName { .continuousLocation }

    func slotFixAccuracy(in context: StrategyContext) -> LocationAccuracy? { nil }

    /// Updates started in use with background updates allowed keep a When-In-Use app running.
    func tracksInBackground(whenInUse environment: KeepAliveEnvironment) -> Bool { true }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action] {
        switch event {
        case .launched, .woke, .enteredForeground:
            return [.startLocationUpdates(.init(accuracy: .best, pausesAutomatically: false))]
        default:
            return []
        }
    }
}
