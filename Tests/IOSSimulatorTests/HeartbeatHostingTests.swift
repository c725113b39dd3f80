import BackgroundCore
import IOSShellHost
import IOSSimulator
import Testing

/// The login's heartbeat is the shell's (`Tracker+Heartbeat.swift`): each beat is an in-process
/// data task the simulator answers from the server model while the app runs, and the shell's own
/// rules decide what an answer means (issue 39: no copy of the heartbeat in the simulator).
@MainActor @Suite struct HeartbeatHostingTests {
    func run(
        _ happenings: [(at: Double, Scenario.Happening)] = [], loggedIn: Bool = true,
        outage: ClosedRange<Double>? = nil, strategy: StrategyName = .adaptive
    ) -> SimulationReport {
        var scenario = Scenario.commute()
        scenario.loggedIn = loggedIn
        scenario.happenings += happenings
        if let outage { scenario.networkOutages.append(outage) }
        var simulation = Simulation(
            SimulationConfiguration(
                strategy: strategy, ios: 17, app: IOSShell(), scenario: scenario, memoryKillFactor: 0,
                recordsTimeline: true))
        return simulation.run()
    }

    func lines(_ report: SimulationReport, _ text: String) -> [String] {
        report.timeline?.filter { $0.contains(text) } ?? []
    }

    @Test func theShellsHeartbeatsAreAnsweredAsDataTasks() {
        let report = run()
        let answered = lines(report, "POST /v1/sessions/heartbeat answered 200")
        // A beat at login, then one per 30-minute interval in which nothing else reached the server.
        #expect(answered.count >= 10, "\(answered.count) beats")
        #expect(lines(report, "answered 401").isEmpty)
        #expect(report.invariantViolations == 0, "\(report.violationExamples)")
    }

    @Test func aUserWhoIsNotLoggedInSendsNoHeartbeat() {
        let report = run(loggedIn: false)
        #expect(lines(report, "/v1/sessions/heartbeat").isEmpty)
        #expect(report.coverage > 0.9, "tracking does not need a session")
    }

    /// The server revokes the session at 12:00: the shell's next beat is answered 401, the shell
    /// stops tracking itself and warns; at 13:00 the user logs in again and the
    /// app starts tracking.
    @Test func aRevokedSessionIsEndedByTheShellAndALoginRestartsTracking() throws {
        let report = run([(at: 12 * 3600, .revokeSession), (at: 13 * 3600, .renewSession)])
        let refused = lines(report, "POST /v1/sessions/heartbeat answered 401")
        #expect(refused.count == 1, "one refused beat ends the session: \(refused)")
        let stop = try #require(refused.first)
        #expect(stop.hasPrefix("12:"), "the first beat after the revocation: \(stop)")
        #expect(report.notificationsByKind["login-expired"] == 1)
        #expect(lines(report, "shell: logged in again; tracking restarts").count == 1)
        let afterLogin = lines(report, "answered 200").filter { $0.hasPrefix("13:00:00") }
        #expect(!afterLogin.isEmpty, "the new session's first beat: \(lines(report, "heartbeat"))")
        #expect(report.coverage > 0.9, "tracking resumed after the login")
    }

    /// Without a network the beat fails (`NSURLErrorNotConnectedToInternet`): the session stays and
    /// tracking goes on, as the heartbeat machine says for a failed beat.
    @Test func aBeatWithoutNetworkFailsAndTheSessionStays() {
        let report = run(outage: 9 * 3600...11 * 3600)
        #expect(!lines(report, "heartbeat failed: The Internet connection appears to be offline.").isEmpty)
        #expect(report.notificationsByKind["login-expired"] == nil)
        #expect(report.coverage > 0.9)
    }
}
