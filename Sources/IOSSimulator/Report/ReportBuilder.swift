import BackgroundCore

/// Collects what a run observed and turns it into a `SimulationReport`.
struct ReportBuilder: Sendable {
    let configuration: SimulationConfiguration
    var sampleTimes: [Instant] = []
    var backgroundAlive = 0.0
    var aliveAfterBackground: [Double] = []
    var kills: [String: Int] = [:]
    var violations = 0
    var violationExamples: [String] = []
    var notifications: [String: Int] = [:]
    var pushesDelivered = 0
    var pushesDropped = 0
    var relaunches = 0
    var fixesRejected = 0
    var uploads = 0
    var events = 0
    var samplesOnServer = 0
    var samplesPending = 0
    var reviewRisks: Set<String> = []
    var timeline: [String] = []
    var deadManNotices: [DeadManNotice] = []

    init(configuration: SimulationConfiguration) {
        self.configuration = configuration
    }

    mutating func violation(_ now: Instant, _ description: String) {
        violations += 1
        if violationExamples.count < 5 { violationExamples.append("\(clock(now)) \(description)") }
        note(now, "INVARIANT: \(description)")
    }

    mutating func note(_ now: Instant, _ text: String) {
        if configuration.recordsTimeline { timeline.append("\(clock(now)) \(text)") }
    }

    /// `HH:MM:SS` since the scenario's start (days roll over past 24 h).
    func clock(_ instant: Instant) -> String {
        let seconds = Int((instant - configuration.scenario.start).seconds)
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(h)):\(two(m)):\(two(s))"
    }

    func finish(energy: EnergyMeter, end: Instant) -> SimulationReport {
        let start = configuration.scenario.start
        let interval = configuration.samplingInterval.wholeMilliseconds
        let expected = Int((end.milliseconds - start.milliseconds) / interval)
        let slots = Set(
            sampleTimes.map { ($0.milliseconds - start.milliseconds) / interval }.filter { $0 >= 0 && $0 < expected })
        var maxGap = 0.0
        var previous = start
        for time in sampleTimes.sorted() + [end] {
            maxGap = max(maxGap, (time - previous).seconds)
            previous = time
        }
        let alive = aliveAfterBackground.sorted()
        let median = alive.isEmpty ? 0 : alive[alive.count / 2]
        var byComponent: [String: Double] = [:]
        for component in EnergyMeter.Component.allCases {
            let value = energy.milliwattHours(component)
            if value > 0 { byComponent[component.rawValue] = value.rounded(toPlaces: 2) }
        }
        return SimulationReport(
            strategy: configuration.strategy.rawValue, ios: configuration.ios,
            auth: configuration.authorization.rawValue,
            scenario: configuration.scenario.name, seed: configuration.seed, hours: configuration.hours,
            samplesExpected: expected, samplesCaptured: slots.count,
            coverage: expected > 0 ? (Double(slots.count) / Double(expected)).rounded(toPlaces: 4) : 0,
            maxGapS: maxGap.rounded(toPlaces: 1), backgroundAliveS: backgroundAlive.rounded(toPlaces: 1),
            aliveAfterBackgroundS: median.rounded(toPlaces: 1),
            energyMwh: energy.totalMilliwattHours.rounded(toPlaces: 2),
            energyByComponentMwh: byComponent, kills: kills, invariantViolations: violations,
            violationExamples: violationExamples, notifications: notifications.values.reduce(0, +),
            notificationsByKind: notifications, silentPushesDelivered: pushesDelivered,
            silentPushesDropped: pushesDropped, relaunches: relaunches, fixesRejected: fixesRejected,
            uploads: uploads, samplesOnServer: samplesOnServer, samplesPending: samplesPending, events: events,
            reviewRisks: reviewRisks.sorted(), deadManNotices: deadManNotices,
            timeline: configuration.recordsTimeline ? timeline : nil)
    }
}
