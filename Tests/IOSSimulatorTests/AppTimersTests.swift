import BackgroundCore
import Testing

@testable import IOSSimulator

/// The app's timers: versions make stale events stale; suspended apps fire them on resume.
@Suite struct AppTimersTests {
    let sample: TimerID = "sample"
    let retry: TimerID = "retry"

    @Test func reschedulingOrCancellingMakesTheEarlierEventStale() {
        var timers = AppTimers()
        let first = timers.schedule(sample)
        let second = timers.schedule(sample)
        #expect(!timers.isCurrent(sample, version: first))
        #expect(timers.isCurrent(sample, version: second))
        timers.cancel(sample)
        #expect(!timers.isCurrent(sample, version: second))
    }

    @Test func aTimerDueWhileSuspendedFiresOnceOnResumeInTheOrderTheyCameDue() {
        var timers = AppTimers()
        let sampleVersion = timers.schedule(sample)
        let retryVersion = timers.schedule(retry)
        timers.cameDueWhileSuspended(retry)
        timers.cameDueWhileSuspended(sample)
        timers.cameDueWhileSuspended(retry)  // counted once
        let due = timers.takeOverdue()
        #expect(due.map(\.id) == [retry, sample])
        #expect(due.map(\.version) == [retryVersion, sampleVersion])
        #expect(timers.takeOverdue().isEmpty)
    }

    @Test func anOverdueTimerThatWasCancelledOrRescheduledDoesNotFireOnResume() {
        var timers = AppTimers()
        _ = timers.schedule(sample)
        _ = timers.schedule(retry)
        timers.cameDueWhileSuspended(sample)
        timers.cameDueWhileSuspended(retry)
        timers.cancel(sample)
        _ = timers.schedule(retry)  // rescheduled: waits for its new time
        #expect(timers.takeOverdue().isEmpty)
    }

    @Test func timersDieWithTheProcessAndVersionsNeverRepeat() {
        var timers = AppTimers()
        let before = timers.schedule(sample)
        timers.cameDueWhileSuspended(sample)
        timers.processEnded()
        #expect(!timers.isCurrent(sample, version: before))
        #expect(timers.overdue.isEmpty)
        let after = timers.schedule(sample)
        #expect(after != before)
        timers.fired(sample)
        #expect(!timers.isCurrent(sample, version: after))
    }
}
