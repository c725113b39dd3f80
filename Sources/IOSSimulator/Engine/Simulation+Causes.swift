import BackgroundCore
package import LocationLog

/// Why iOS stopped location or ended the app, told as iOS tells it (docs/ios-policy.md §Causes):
/// iOS 18's session diagnostics at once, to the sessions the app holds; MetricKit's background
/// exit counts once per report period, after the fact.
extension Simulation {
    // MARK: Session diagnostics (iOS 18)

    /// What a location session's diagnostic says now. Restricted authorization and a session that
    /// needs Always are not modelled (the simulated phone has no Screen Time, the shell's session
    /// needs When In Use), so those properties stay false.
    var currentDiagnostic: Set<StopCause> {
        var causes: Set<StopCause> = []
        guard process != nil else { return causes }
        if !environment.locationServicesEnabled {
            causes.insert(.authorizationDeniedGlobally)
        } else if environment.authorization == .denied {
            causes.insert(.authorizationDenied)
        }
        if !environment.preciseLocation { causes.insert(.fullAccuracyDenied) }
        if location.locationAbandoned {
            causes.insert(.serviceSessionRequired)
        } else if environment.locationServicesEnabled, environment.authorization == .whenInUse, !locationDeliverable {
            causes.insert(.insufficientlyInUse)
        }
        return causes
    }

    /// Sends the sessions the app holds a diagnostic when what it says changed since the process
    /// last heard one (iOS 18; a suspended app hears it when it next runs).
    mutating func updateDiagnostic() {
        guard profile.flag(.contractSessionDiagnostics), isRunning,
            location.serviceSessionHeld || location.activitySession
        else { return }
        let causes = currentDiagnostic
        guard causes != heardDiagnostic else { return }
        heardDiagnostic = causes
        let names = causes.isEmpty ? "all clear" : causes.map(\.rawValue).sorted().joined(separator: ", ")
        report.note(now, "location session diagnostic: \(names)")
        _ = runHosted("a location session diagnostic") { $0.sessionDiagnostic(causes, system: $1) }
    }

    // MARK: MetricKit background exits

    /// The exit-data counter a background termination adds to (docs/ios-policy.md §Causes); `nil`
    /// for what MetricKit is not documented to count (a force-quit, a reboot).
    package static func exitCause(_ reason: String) -> StopCause? {
        switch reason {
        case "memory": .memoryPressure
        case "watchdog", "task-not-completed", "push-not-completed": .backgroundTaskAssertionTimeout
        case "crash", "assertion-limit": .abnormal
        default: nil
        }
    }

    /// The process is ended for `reason` while not on screen: MetricKit counts it.
    mutating func countExit(_ reason: String) {
        guard profile.flag(.contractExitReports), process?.state != .foreground,
            let cause = Self.exitCause(reason)
        else { return }
        closeExitReportPeriods()
        exitReports.count(cause)
    }

    /// The length of one report's period.
    var exitReportLength: Duration { .seconds(Int64((profile[.exitReportPeriod] * 3600).rounded())) }

    /// Ends the periods that are over: each becomes a report to deliver (one without background
    /// exits says nothing about a kill and is not sent).
    mutating func closeExitReportPeriods() {
        guard profile[.exitReportPeriod] > 0 else { return }
        exitReports.closePeriods(at: now, from: configuration.scenario.start, period: exitReportLength)
    }

    /// Delivers the reports of ended periods when the app runs (`didReceive(_:)`), after the fact.
    mutating func deliverExitReportsIfDue() {
        guard profile.flag(.contractExitReports) else { return }
        closeExitReportPeriods()
        while isRunning, let due = exitReports.takeDue() {
            let counts = due.causes.map { "\($0.rawValue) ×\(due.counts[$0] ?? 0)" }.joined(separator: ", ")
            report.note(now, "MetricKit report \(report.clock(due.begin))–\(report.clock(due.end)): \(counts)")
            _ = runHosted("MetricKit's report") { $0.metricReport(due, system: $1) }
        }
    }
}
