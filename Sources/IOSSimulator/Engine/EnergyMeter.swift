import BackgroundCore

/// Integrates the phone's energy spent on behalf of the app, by component, in millijoules.
///
/// Continuous draws (location providers, audio) are integrated between events; bursts (one-shot
/// fixes, CPU per handled event, radio promotions and tails) are added when they happen. The
/// screen is the user's, not the strategy's, and is not counted.
struct EnergyMeter: Sendable {
    enum Component: String, CaseIterable, Sendable {
        case gps, wifiLocation = "wifi-location", cellLocation = "cell-location", significantChange =
            "significant-change"
        case visits, cpu, radio, audio
    }

    private(set) var millijoules: [Component: Double] = [:]
    private var lastAccrual: Instant
    private var radioTailEnd: Instant?

    init(start: Instant) {
        self.lastAccrual = start
    }

    var totalMilliwattHours: Double { millijoules.values.reduce(0, +) / 3600 }

    func milliwattHours(_ component: Component) -> Double { (millijoules[component] ?? 0) / 3600 }

    /// Adds `draws` (mW by component) over the time since the last accrual.
    mutating func accrue(until now: Instant, draws: [(Component, Double)]) {
        let seconds = (now - lastAccrual).seconds
        lastAccrual = now
        guard seconds > 0 else { return }
        for (component, milliwatts) in draws where milliwatts > 0 {
            millijoules[component, default: 0] += milliwatts * seconds
        }
    }

    mutating func add(_ component: Component, milliwatts: Double, seconds: Double) {
        millijoules[component, default: 0] += milliwatts * seconds
    }

    /// One network exchange: a promotion when the radio is idle, then the tail (extended when a
    /// burst lands inside the previous tail, which is why coalescing traffic saves energy).
    mutating func radioBurst(at now: Instant, profile: IOSProfile) {
        let tail = profile.duration(.lteTailTime)
        if let end = radioTailEnd, now < end {
            add(.radio, milliwatts: profile[.lteTailPower], seconds: (now + tail - end).seconds)
        } else {
            add(.radio, milliwatts: profile[.ltePromotionPower], seconds: profile[.ltePromotionTime])
            add(.radio, milliwatts: profile[.lteTailPower], seconds: tail.seconds)
        }
        radioTailEnd = now + tail
    }
}
