import BackgroundCore
import IOSSimulator
import Testing

/// `setTaskCompleted(success:)` ends a refresh task's grant; a task still open at its deadline
/// whose expiration handler did not complete it gets the app killed ([AD-bgexp],
/// docs/ios-policy.md §Scheduler, §Contract).
@Suite struct TaskGrantTests {
    static let refresh = BackgroundTaskIdentifiers.refresh

    /// Schedules a refresh at launch and answers each refresh launch or wake with `onRefresh`.
    static func app(
        onRefresh: @escaping @Sendable () -> [RuntimeCall], onExpiry: @escaping @Sendable () -> [RuntimeCall]
    ) -> @Sendable () -> ScriptedApp {
        {
            ScriptedApp(
                { event, system in
                    switch event {
                    case .launched(.user):
                        return HostedResult(effects: [.backgroundTasks(.submit(.refresh(earliest: system.now)))])
                    case .launched(.backgroundRefresh), .woke(.backgroundRefresh):
                        return HostedResult(runtime: onRefresh())
                    default:
                        return HostedResult()
                    }
                }, onExpiry: { _ in HostedResult(runtime: onExpiry()) })
        }
    }

    static func wakes(_ report: SimulationReport) -> [String] {
        (report.timeline ?? []).filter { $0.contains("(backgroundRefresh)") }
    }

    @Test("a completed refresh task suspends the app at once; an open one holds it until its deadline")
    func completionEndsTheGrant() throws {
        let completes = SimulationConfiguration.scripted(
            Self.app(
                onRefresh: { [.backgroundTaskCompleted(identifier: Self.refresh, success: true)] }, onExpiry: { [] })
        ).run()
        let handlerCompletes = SimulationConfiguration.scripted(
            Self.app(
                onRefresh: { [] }, onExpiry: { [.backgroundTaskCompleted(identifier: Self.refresh, success: false)] })
        ).run()
        try #require(!Self.wakes(completes).isEmpty)
        try #require(!Self.wakes(handlerCompletes).isEmpty)
        // Completed at once: the refresh wake adds (almost) no background time.
        #expect(completes.backgroundAliveS < handlerCompletes.backgroundAliveS)
        #expect(completes.kills["task-not-completed"] == nil)
        // Completed in the expiration handler, before the deadline: not killed either.
        #expect(handlerCompletes.kills["task-not-completed"] == nil)
    }

    @Test("a refresh task left open by its expiration handler gets the app killed at the deadline")
    func openTaskAtDeadlineIsKilled() throws {
        let report = SimulationConfiguration.scripted(Self.app(onRefresh: { [] }, onExpiry: { [] })).run()
        try #require(!Self.wakes(report).isEmpty)
        #expect(report.kills["task-not-completed"] == 1)
        #expect(report.timeline?.contains { $0.contains("expiration handler runs") } == true)
    }
}
