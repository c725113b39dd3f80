import BackgroundCore
import IOSShellHost
import IOSSimulator
import LocationLog
import Testing

extension ShellSuite {
    /// Every kill and stop has its cause (issue 40 item 3, docs/ios-policy.md §Causes): the
    /// simulated iPhone tells the hosted shell why as iOS does, iOS 18's session diagnostics at
    /// once and MetricKit's exit counts a report period later, and the gaps the simulated server
    /// receives say it. Each rule is a policy row; with the row off the cause is gone.
    @Suite("Stop causes through the simulated iPhone")
    @MainActor
    struct StopCauseSimulationTests {
        static func run(
            ios: Int = 18, auth: LocationAuthorization = .whenInUse, hours: Double = 8, memoryKills: Double = 0,
            happenings: [(at: Double, Scenario.Happening)] = [], off: PolicyKey? = nil
        ) -> (SimulationReport, [GapInterval], start: Instant) {
            var configuration = SimulationConfiguration(
                strategy: .adaptive, ios: ios, app: IOSShell(), authorization: auth, hours: hours, seed: 3,
                memoryKillFactor: memoryKills, recordsTimeline: true)
            configuration.scenario.happenings += happenings
            configuration.scenario.happenings.sort { $0.at < $1.at }
            if let off { configuration.parameterScales[off] = 0 }
            var simulation = Simulation(configuration)
            let report = simulation.run()
            return (report, simulation.serverGaps.filter { $0.end > $0.start }, configuration.scenario.start)
        }

        @Test("iOS 18: permission Never and Precise Location off reach the session's diagnostics and the gaps")
        func diagnosticsExplainTheStop() throws {
            let events: [(at: Double, Scenario.Happening)] = [
                (at: 2 * 3600, .preciseLocation(false)), (at: 3 * 3600, .preciseLocation(true)),
                (at: 4 * 3600, .authorization(.denied)),
            ]
            let (report, gaps, _) = Self.run(happenings: events)
            let timeline = try #require(report.timeline)
            #expect(timeline.contains { $0.contains("location session diagnostic: fullAccuracyDenied") }, "\(timeline)")
            #expect(timeline.contains { $0.contains("location session diagnostic: authorizationDenied") })
            let precise = gaps.first { $0.reason == .preciseOff }
            #expect(precise?.detail?.contains(StopCause.fullAccuracyDenied.words) == true, "\(gaps)")
            #expect(
                report.appStatus.contains { $0.contains(StopCause.authorizationDenied.statusWords) },
                "\(report.appStatus)")
            #expect(report.invariantViolations == 0, "\(report.violationExamples)")
            // Without the rule (iOS 17 has no diagnostics) nothing says why.
            let (without, withoutGaps, _) = Self.run(happenings: events, off: .contractSessionDiagnostics)
            #expect(!(without.timeline ?? []).contains { $0.contains("location session diagnostic") })
            #expect(!withoutGaps.contains { $0.detail?.contains(StopCause.fullAccuracyDenied.words) == true })
        }

        @Test("a memory kill is counted and its gap gets the cause from the next period's MetricKit report")
        func metricKitExplainsTheKillAfterTheFact() throws {
            let (report, gaps, start) = Self.run(auth: .always, hours: 30, memoryKills: 20)
            let timeline = try #require(report.timeline)
            #expect(report.kills["memory", default: 0] > 0)
            let reportLine = try #require(timeline.first { $0.contains("MetricKit report 00:00:00–24:00:00") })
            #expect(reportLine.contains("memoryPressure ×"), "\(reportLine)")
            #expect(reportLine.hasPrefix("24:") || reportLine.hasPrefix("25:"), "after the period: \(reportLine)")
            let kills = gaps.filter { $0.reason == .terminatedBySystem && $0.start < start + .seconds(86_400) }
            #expect(!kills.isEmpty)
            let explained = kills.filter { $0.detail?.contains("(MetricKit)") == true }
            #expect(explained.count == kills.count, "\(kills.map { $0.detail ?? "-" })")
            #expect(explained.allSatisfy { $0.detail?.contains("iOS needed the memory for other apps") == true })
            #expect(report.samplesOnServer + report.samplesPending == report.samplesRecorded, "nothing lost")
            // Without the rule no report comes and the kills keep only what the phone knew.
            let (_, withoutGaps, _) = Self.run(auth: .always, hours: 30, memoryKills: 20, off: .contractExitReports)
            #expect(!withoutGaps.contains { $0.detail?.contains("(MetricKit)") == true })
        }

        @Test("the exit counters: which kill adds to which, none for what MetricKit is not documented to count")
        func exitCounters() {
            #expect(Simulation.exitCause("memory") == .memoryPressure)
            #expect(Simulation.exitCause("watchdog") == .backgroundTaskAssertionTimeout)
            #expect(Simulation.exitCause("task-not-completed") == .backgroundTaskAssertionTimeout)
            #expect(Simulation.exitCause("crash") == .abnormal)
            #expect(Simulation.exitCause("force-quit") == nil)
            #expect(Simulation.exitCause("reboot") == nil)
        }
    }
}
