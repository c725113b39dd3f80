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
    /// The part of `millijoules` computed from at least one parameter whose status is
    /// `assumption` (no measured or documented source).
    private(set) var assumedMillijoules = 0.0
    /// The parameters marked `assumption` on the simulated iOS version.
    private let assumptions: Set<PolicyKey>
    private var lastAccrual: Instant
    private var radioTailEnd: Instant?

    init(start: Instant, assumptions: Set<PolicyKey> = []) {
        self.lastAccrual = start
        self.assumptions = assumptions
    }

    var totalMilliwattHours: Double { millijoules.values.reduce(0, +) / 3600 }

    /// The share of the energy that rests on an assumed parameter (0 when nothing was spent).
    var assumedShare: Double {
        let total = millijoules.values.reduce(0, +)
        return total > 0 ? assumedMillijoules / total : 0
    }

    /// The power parameter of a component's continuous draw.
    static func powerKey(_ component: Component) -> PolicyKey {
        switch component {
        case .gps: return .gpsPower
        case .wifiLocation: return .wifiLocationPower
        case .cellLocation: return .cellLocationPower
        case .significantChange: return .significantChangePower
        case .visits: return .visitsPower
        case .cpu: return .cpuPower
        case .radio: return .lteTailPower
        case .audio: return .audioPower
        }
    }

    private mutating func spend(_ component: Component, _ millijoules: Double, restingOn keys: [PolicyKey]) {
        self.millijoules[component, default: 0] += millijoules
        if keys.contains(where: assumptions.contains) { assumedMillijoules += millijoules }
    }

    func milliwattHours(_ component: Component) -> Double { (millijoules[component] ?? 0) / 3600 }

    /// Adds `draws` (mW by component) over the time since the last accrual.
    mutating func accrue(until now: Instant, draws: [(Component, Double)]) {
        let seconds = (now - lastAccrual).seconds
        lastAccrual = now
        guard seconds > 0 else { return }
        for (component, milliwatts) in draws where milliwatts > 0 {
            spend(component, milliwatts * seconds, restingOn: [Self.powerKey(component)])
        }
    }

    /// A burst: `milliwatts` for `seconds`, computed from `keys` (the power and the duration's
    /// parameters), which decide whether it counts as resting on an assumption.
    mutating func add(_ component: Component, milliwatts: Double, seconds: Double, restingOn keys: [PolicyKey]) {
        spend(component, milliwatts * seconds, restingOn: keys)
    }

    /// One network exchange: a promotion when the radio is idle, then the tail (extended when a
    /// burst lands inside the previous tail, which is why coalescing traffic saves energy).
    mutating func radioBurst(at now: Instant, profile: IOSProfile) {
        let tail = profile.duration(.lteTailTime)
        if let end = radioTailEnd, now < end {
            add(
                .radio, milliwatts: profile[.lteTailPower], seconds: (now + tail - end).seconds,
                restingOn: [.lteTailPower, .lteTailTime])
        } else {
            add(
                .radio, milliwatts: profile[.ltePromotionPower], seconds: profile[.ltePromotionTime],
                restingOn: [.ltePromotionPower, .ltePromotionTime])
            add(
                .radio, milliwatts: profile[.lteTailPower], seconds: tail.seconds,
                restingOn: [.lteTailPower, .lteTailTime])
        }
        radioTailEnd = now + tail
    }
}
