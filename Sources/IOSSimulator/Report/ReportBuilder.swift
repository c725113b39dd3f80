import BackgroundCore

/// Collects what a run observed and turns it into a `SimulationReport`.
struct ReportBuilder: Sendable {
    let configuration: SimulationConfiguration
    var sampleTimes: [Instant] = []
    /// The times of the samples taken with Precise Location on (the rest are iOS's ~5 km
    /// approximate fixes).
    var preciseSampleTimes: [Instant] = []
    var samplePlaces: [(time: Instant, place: Coordinate)] = []
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
    var approximateSamples = 0
    var processingRuns = 0
    var backgroundTransfers = 0
    var regionFailures = 0
    var motionActivities = 0
    /// The one note on why motion updates deliver nothing has been written.
    var motionNoted = false
    var crashes: [CrashRecord] = []
    var warnings = 0
    var warningExamples: [String] = []
    var authorizationChanges: [String] = []
    var submitRefusals = 0
    var notificationAuthorization = NotificationAuthorization.notDetermined
    var notificationsNotShown: [String: Int] = [:]
    var appStatus: [String] = []

    init(configuration: SimulationConfiguration) {
        self.configuration = configuration
    }

    mutating func violation(_ now: Instant, _ description: String) {
        violations += 1
        if violationExamples.count < 5 { violationExamples.append("\(clock(now)) \(description)") }
        note(now, "INVARIANT: \(description)")
    }

    /// A runtime issue Xcode would show (not a violation of iOS's rules).
    mutating func warning(_ now: Instant, _ description: String) {
        warnings += 1
        if warningExamples.count < 5 { warningExamples.append("\(clock(now)) \(description)") }
        note(now, "WARNING: \(description)")
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

    /// Issue 8, item 10: how far the recorded track is from the true route, once a minute. The
    /// recorded position at a minute is the line between the samples either side (or the nearest
    /// sample before the first or after the last), as a map draws it.
    func pathError(end: Instant) -> (mean: Double, max: Double, within100: Double)? {
        let places = samplePlaces.sorted { $0.time < $1.time }
        guard !places.isEmpty else { return nil }
        let track = configuration.scenario.track
        var total = 0.0
        var worst = 0.0
        var close = 0
        var minutes = 0
        var next = 0
        var time = configuration.scenario.start
        while time < end {
            while next < places.count, places[next].time <= time { next += 1 }
            let estimate: Coordinate
            if next == 0 {
                estimate = places[0].place
            } else if next == places.count {
                estimate = places[places.count - 1].place
            } else {
                let (before, after) = (places[next - 1], places[next])
                let span = (after.time - before.time).seconds
                let share = span > 0 ? (time - before.time).seconds / span : 0
                estimate = Coordinate(
                    latitude: before.place.latitude + (after.place.latitude - before.place.latitude) * share,
                    longitude: before.place.longitude + (after.place.longitude - before.place.longitude) * share)
            }
            let error = estimate.distance(to: track.position(at: time))
            total += error
            worst = max(worst, error)
            if error <= 100 { close += 1 }
            minutes += 1
            time += .seconds(60)
        }
        guard minutes > 0 else { return nil }
        return (total / Double(minutes), worst, Double(close) / Double(minutes))
    }

    func finish(energy: EnergyMeter, end: Instant, authorization: LocationAuthorization) -> SimulationReport {
        let start = configuration.scenario.start
        let interval = configuration.samplingInterval.wholeMilliseconds
        let expected = Int((end.milliseconds - start.milliseconds) / interval)
        func slotsOf(_ times: [Instant]) -> Set<Int64> {
            Set(times.map { ($0.milliseconds - start.milliseconds) / interval }.filter { $0 >= 0 && $0 < expected })
        }
        // Coverage counts the slots with a precise sample; a slot with only an approximate
        // (~5 km) sample counts apart, in `coverageApproximate`.
        let precise = slotsOf(preciseSampleTimes)
        let slots = slotsOf(sampleTimes)
        let approximateOnly = slots.subtracting(precise)
        var maxGap = 0.0
        var previous = start
        for time in sampleTimes.sorted() + [end] {
            maxGap = max(maxGap, (time - previous).seconds)
            previous = time
        }
        let alive = aliveAfterBackground.sorted()
        let median = alive.isEmpty ? 0 : alive[alive.count / 2]
        let path = pathError(end: end)
        // Issue 8, item 9: the least any strategy could spend on this day: one fix per slot at the
        // modelled GPS time-to-fix, and one upload burst (LTE promotion and tail) per upload interval.
        let profile = configuration.profile ?? IOSProfile.fallback
        let hours = (end - start).seconds / 3600
        let fixes = Double(expected) * profile[.gpsPower] * profile[.gpsTimeToFix] / 3600
        let uploadBursts = (end - start).seconds / configuration.uploadInterval.seconds
        let burst =
            (profile[.ltePromotionPower] * profile[.ltePromotionTime] + profile[.lteTailPower] * profile[.lteTailTime])
            / 3600
        let floor = hours > 0 ? fixes + uploadBursts * burst : 0
        var byComponent: [String: Double] = [:]
        for component in EnergyMeter.Component.allCases {
            let value = energy.milliwattHours(component)
            if value > 0 { byComponent[component.rawValue] = value.rounded(toPlaces: 2) }
        }
        var report = SimulationReport(
            strategy: configuration.strategy.rawValue, ios: configuration.ios,
            auth: configuration.authorization.rawValue,
            scenario: configuration.scenario.name, seed: configuration.seed, hours: configuration.hours,
            samplesExpected: expected, samplesCaptured: slots.count, samplesRecorded: sampleTimes.count,
            coverage: expected > 0 ? (Double(precise.count) / Double(expected)).rounded(toPlaces: 4) : 0,
            maxGapS: maxGap.rounded(toPlaces: 1), backgroundAliveS: backgroundAlive.rounded(toPlaces: 1),
            aliveAfterBackgroundS: median.rounded(toPlaces: 1),
            energyMwh: energy.totalMilliwattHours.rounded(toPlaces: 2),
            energyByComponentMwh: byComponent, kills: kills, invariantViolations: violations,
            violationExamples: violationExamples, notifications: notifications.values.reduce(0, +),
            notificationsByKind: notifications, silentPushesDelivered: pushesDelivered,
            silentPushesDropped: pushesDropped, relaunches: relaunches, fixesRejected: fixesRejected,
            uploads: uploads, samplesOnServer: samplesOnServer, samplesPending: samplesPending, events: events,
            reviewRisks: reviewRisks.sorted(), deadManNotices: deadManNotices,
            pathErrorMeanM: path.map { $0.mean.rounded(toPlaces: 1) } ?? -1,
            pathErrorMaxM: path.map { $0.max.rounded(toPlaces: 1) } ?? -1,
            pathWithin100m: path.map { $0.within100.rounded(toPlaces: 4) } ?? 0,
            energyFloorMwh: floor.rounded(toPlaces: 2), samplesApproximate: approximateSamples,
            processingRuns: processingRuns, backgroundTransfers: backgroundTransfers,
            regionFailures: regionFailures, motionActivities: motionActivities,
            shell: configuration.app.name,
            crashes: crashes, warnings: warnings, warningExamples: warningExamples,
            authorization: authorization.rawValue, authorizationChanges: authorizationChanges,
            submitRefusals: submitRefusals, plist: configuration.effectivePlist.origin,
            coverageApproximate: expected > 0
                ? (Double(approximateOnly.count) / Double(expected)).rounded(toPlaces: 4) : 0,
            energyAssumedShare: energy.assumedShare.rounded(toPlaces: 3),
            timeline: configuration.recordsTimeline ? timeline : nil)
        report.notificationAuthorization = notificationAuthorization.rawValue
        report.notificationsNotShown = notificationsNotShown
        report.appStatus = appStatus
        return report
    }
}
