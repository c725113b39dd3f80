import AppleShadow
import BackgroundCore
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    @Suite("Background tasks and launch")
    @MainActor
    struct BackgroundTaskAdapterTests {
        @Test("the expiration handler ends the task before it returns; ledger and system agree")
        func expiryEndsTheTaskAtOnce() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingInBackground(.finiteTask)
            let open = try #require(harness.system.openTasks.first, "entering the background begins a task")
            #expect(open.value == "finish-work")

            harness.system.expire(open.key)

            #expect(harness.system.endedInsideHandler == [open.key], "ended inside its own expiration handler")
            #expect(harness.system.openTasks.isEmpty)
            #expect(tracker.taskIDs.isEmpty)
            let ledger = try #require(tracker.machine?.ledger)
            #expect(!ledger.hasOpenTasks)
            #expect(ledger.begunCount == ledger.endedCount, "every task begun was ended exactly once")
        }

        @Test("a refused task is forgotten by the ledger, never ended")
        func refusedTask() throws {
            let harness = try ShellHarness()
            harness.system.refuseTasks = true
            let tracker = try harness.tracker(.finiteTask)
            tracker.didFinishLaunching(nil)
            tracker.start()
            tracker.applicationDidEnterBackground()
            #expect(!harness.system.trace.contains { $0.hasPrefix("endBackgroundTask") })
            #expect(tracker.machine?.ledger.hasOpenTasks == false)
        }

        @Test("both BGTaskScheduler identifiers are registered before didFinishLaunching returns")
        func registersBeforeLaunchFinishes() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            #expect(harness.system.launchHandlers.isEmpty)

            tracker.didFinishLaunching(nil)

            #expect(
                Set(harness.system.launchHandlers.keys)
                    == [BackgroundTaskIdentifiers.refresh, BackgroundTaskIdentifiers.processing])
            // Registration is the first thing the shell asks of the system.
            #expect(harness.system.trace.prefix(2).allSatisfy { $0.hasPrefix("register ") })
        }

        @Test("a background launch submits both requests; the refresh handler wakes the machine")
        func refreshTaskRuns() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingInBackground(.adaptive)
            #expect(harness.system.submitted.map(\.identifier).contains(BackgroundTaskIdentifiers.refresh))
            let processing = try #require(harness.system.submitted.last { $0 is BGProcessingTaskRequest })
            #expect((processing as? BGProcessingTaskRequest)?.requiresExternalPower == true)

            let handler = try #require(harness.system.launchHandlers[BackgroundTaskIdentifiers.refresh])
            let before = harness.system.calls.count
            handler(BGTask(shadowIdentifier: BackgroundTaskIdentifiers.refresh))

            // The wake asked Core Location for a fix (completion waits for it: RuntimeContractTests).
            #expect(harness.system.calls.dropFirst(before).contains { $0.call == .requestLocation })
            withExtendedLifetime(tracker) {}  // the handler holds the tracker weakly
        }
    }
}
