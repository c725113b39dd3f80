import BackgroundCore
import Testing

@testable import IOSSimulator

/// The process's life: generations, stints, time on screen, background running, force quit, reboot.
@Suite struct ProcessTimelineTests {
    let start = Instant(milliseconds: 1_700_000_000_000)

    @Test func everyLaunchAndEveryDeathIsANewGeneration() {
        var timeline = ProcessTimeline(start: start)
        let first = timeline.processStarted()
        timeline.processEnded()
        let second = timeline.processStarted()
        #expect(first == 1)
        #expect(timeline.generation == second)
        #expect(second == first + 2)  // the death in between made events of the first stale
        #expect(timeline.beginStint() == 1)
        #expect(timeline.beginStint() == 2)
    }

    @Test func overlappingForegroundSessionsMerge() {
        var timeline = ProcessTimeline(start: start)
        #expect(timeline.extendForeground(until: start + .seconds(120)) == start + .seconds(120))
        #expect(timeline.extendForeground(until: start + .seconds(60)) == start + .seconds(120))
        #expect(timeline.extendForeground(until: start + .seconds(300)) == start + .seconds(300))
    }

    @Test func leavingTheAppOpensTheHandlerWindowAndTheFirstIntervalCountsSinceLeaving() throws {
        var timeline = ProcessTimeline(start: start)
        _ = timeline.processStarted()
        let left = start + .seconds(60)
        timeline.leftForeground(at: left, handlerWindow: .seconds(5))
        #expect(timeline.backgroundSince == left)
        #expect(timeline.handlerWindowEnd == left + .seconds(5))
        timeline.startRunning(at: left)
        timeline.startRunning(at: left + .seconds(3))  // already running: unchanged
        let firstValue = timeline.closeRunningInterval(at: left + .seconds(30), inForeground: false)
        let first = try #require(firstValue)
        #expect(first == .init(seconds: 30, sinceLeavingForeground: 30))
        // A later wake is background time too, but not "after leaving the app".
        timeline.startRunning(at: left + .seconds(600))
        let wakeValue = timeline.closeRunningInterval(at: left + .seconds(610), inForeground: false)
        let wake = try #require(wakeValue)
        #expect(wake == .init(seconds: 10, sinceLeavingForeground: nil))
        #expect(timeline.closeRunningInterval(at: left + .seconds(700), inForeground: false) == nil)
    }

    @Test func timeOnScreenIsNotBackgroundTime() {
        var timeline = ProcessTimeline(start: start)
        timeline.startRunning(at: start)
        #expect(timeline.closeRunningInterval(at: start + .seconds(60), inForeground: true) == nil)
        #expect(timeline.closeRunningInterval(at: start + .seconds(90), inForeground: false) == nil)
    }

    @Test func aDeathEndsTheHandlerWindowAndForgetsUnheardSettings() {
        var timeline = ProcessTimeline(start: start)
        _ = timeline.processStarted()
        timeline.leftForeground(at: start, handlerWindow: .seconds(5))
        timeline.settingsChangedUnheard()
        timeline.processEnded()
        #expect(timeline.handlerWindowEnd == nil)
        #expect(timeline.hearSettings() == false)
    }

    @Test func unheardSettingsAreHeardOnce() {
        var timeline = ProcessTimeline(start: start)
        timeline.settingsChangedUnheard()
        #expect(timeline.hearSettings() == true)
        #expect(timeline.hearSettings() == false)
    }

    @Test func aForceQuitBlocksLaunchesUntilTheUserOpensTheAppAndARebootLocksThePhone() {
        var timeline = ProcessTimeline(start: start)
        timeline.forceQuitted(blocksLaunches: true)
        #expect(timeline.forceQuit)
        timeline.userOpened()
        #expect(!timeline.forceQuit)
        timeline.forceQuitted(blocksLaunches: false)  // iOS versions where it does not block
        #expect(!timeline.forceQuit)
        #expect(timeline.isUnlocked)
        timeline.rebooted()
        #expect(!timeline.isUnlocked, "locked from the reboot until the first unlock")
        timeline.firstUnlock()
        #expect(timeline.isUnlocked)
    }
}
