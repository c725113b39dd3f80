import BackgroundCore
import IOSShellHost
import IOSSimulator
import Testing

/// A silent push hands the app a fetch completion handler: "as soon as you finish processing the
/// notification, you must call the block in the handler parameter or your app will be
/// terminated. Your app has up to 30 seconds" ([AD-drn], docs/ios-policy.md §Push, §Contract).
@Suite struct PushHandlerTests {
    /// Answers each push launch or wake with `onPush` (the runtime calls it makes).
    static func app(onPush: @escaping @Sendable () -> [RuntimeCall]) -> @Sendable () -> ScriptedApp {
        {
            ScriptedApp { event, _ in
                switch event {
                case .launched(.silentPush), .woke(.silentPush): return HostedResult(runtime: onPush())
                default: return HostedResult()
                }
            }
        }
    }

    /// A quiet 3-hour day with a push every 30 minutes.
    static func run(_ app: @escaping @Sendable () -> ScriptedApp) -> SimulationReport {
        var configuration = SimulationConfiguration.scripted(app)
        configuration.scenario.silentPushesPerHour = 2
        return configuration.run()
    }

    static func pushes(_ report: SimulationReport) -> Int { report.silentPushesDelivered }

    @Test("a handler called at once suspends the app; one never called gets it killed at 30 s")
    func handlerEndsThePushsRuntime() throws {
        let calls = Self.run(Self.app(onPush: { [.remoteNotificationCompleted(result: "noData")] }))
        let never = Self.run(Self.app(onPush: { [] }))
        try #require(Self.pushes(calls) > 0)
        try #require(Self.pushes(never) > 0)
        #expect(calls.kills["push-not-completed"] == nil)
        #expect(
            calls.backgroundAliveS * 5 < never.backgroundAliveS,
            "suspended as soon as the handler ran: \(calls.backgroundAliveS) s against \(never.backgroundAliveS) s")
        #expect(never.kills["push-not-completed"] == Self.pushes(never), "one kill per push: \(never.kills)")
        #expect(never.timeline?.contains { $0.contains("not called within 30 s") } == true)
    }

    /// The shell forwards the push to its machine (the strategy takes a fix) and calls the
    /// handler when that is done: `.newData` with a sample stored, never a kill.
    @Test("the shell calls the handler of every push it gets, with new data")
    @MainActor func theShellCallsEveryHandler() throws {
        var scenario = Scenario.commute()
        scenario.silentPushesPerHour = 2
        var simulation = Simulation(
            SimulationConfiguration(
                strategy: .adaptive, ios: 17, app: IOSShell(), scenario: scenario, memoryKillFactor: 0,
                recordsTimeline: true))
        let report = simulation.run()
        let handled = report.timeline?.filter { $0.contains("fetch completion handler called") } ?? []
        try #require(report.silentPushesDelivered > 10)
        #expect(handled.count == report.silentPushesDelivered, "\(handled.count) of \(report.silentPushesDelivered)")
        #expect(handled.allSatisfy { $0.hasSuffix("(newData)") || $0.hasSuffix("(noData)") }, "\(handled.prefix(3))")
        #expect(handled.contains { $0.hasSuffix("(newData)") })
        #expect(report.kills["push-not-completed"] == nil)
        #expect(report.invariantViolations == 0, "\(report.violationExamples)")
    }
}
