import BackgroundCore
import Testing

@testable import IOSSimulator

/// `BGTaskScheduler` as the system runs it: pending requests outlive the process, grants do not.
@Suite struct TaskSchedulerTests {
    let start = Instant(milliseconds: 1_700_000_000_000)
    static let refresh = BackgroundTaskIdentifiers.refresh
    static let processing = BackgroundTaskIdentifiers.processing

    @Test func aNewRefreshRequestReplacesThePendingOneAndALaunchEndsIt() {
        var scheduler = TaskScheduler()
        let first = scheduler.requestRefresh()
        let second = scheduler.requestRefresh()
        #expect(scheduler.isRefreshPending(first) == false)
        #expect(scheduler.isRefreshPending(second) == true)
        scheduler.refreshLaunched()
        #expect(scheduler.isRefreshPending(second) == false)
    }

    @Test func processingRunsAfterItsEarliestDateAndNotTwiceWithinTheInterval() {
        var scheduler = TaskScheduler()
        let hour = Duration.seconds(3600)
        #expect(scheduler.processingDue(at: start, minimumInterval: hour) == false)  // nothing requested
        scheduler.requestProcessing(earliest: start + .seconds(600))
        #expect(scheduler.processingDue(at: start, minimumInterval: hour) == false)
        #expect(scheduler.processingDue(at: start + .seconds(600), minimumInterval: hour) == true)
        scheduler.processingLaunched(at: start + .seconds(600))
        #expect(scheduler.processingEarliest == nil)
        #expect(scheduler.lastProcessingRun == start + .seconds(600))
        scheduler.requestProcessing(earliest: start + .seconds(700))
        #expect(scheduler.processingDue(at: start + .seconds(1200), minimumInterval: hour) == false)
        #expect(scheduler.processingDue(at: start + .seconds(4200), minimumInterval: hour) == true)
    }

    @Test func aGrantEndsByCompletionByItsDeadlineOrWithTheProcessOnlyOnce() {
        var scheduler = TaskScheduler()
        let first = scheduler.openGrant(Self.refresh)
        #expect(scheduler.completeGrant(Self.processing) == false)  // another task's completion
        #expect(scheduler.grant(version: first)?.identifier == Self.refresh)
        #expect(scheduler.completeGrant(Self.refresh) == true)
        #expect(scheduler.endGrant(version: first) == nil)  // completed before its deadline

        let second = scheduler.openGrant(Self.processing)
        #expect(second != first)
        #expect(scheduler.grant(version: first) == nil)
        #expect(scheduler.endGrant(version: second)?.identifier == Self.processing)
        #expect(scheduler.grant == nil)

        let third = scheduler.openGrant(Self.refresh)
        scheduler.processEnded()
        #expect(scheduler.grant(version: third) == nil)
        #expect(scheduler.completeGrant(Self.refresh) == false)
    }
}
