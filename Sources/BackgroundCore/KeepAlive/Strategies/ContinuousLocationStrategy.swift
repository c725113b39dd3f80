/// `continuous-location`: best-accuracy location updates all the time, background allowed, never
/// paused. Keeps an Always app running all day, at the price of the GPS never sleeping.
struct ContinuousLocationStrategy: KeepAliveStrategy {
    var name: StrategyName { .continuousLocation }

    func slotFixAccuracy(in context: StrategyContext) -> LocationAccuracy? { nil }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveEffect] {
        switch event {
        case .launched, .woke:
            return [.startLocationUpdates(.init(accuracy: .best))]
        default:
            return []
        }
    }
}
