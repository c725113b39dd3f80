import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import IOSSimulator

/// The System/ subsystems that own AVFAudio, UIKit's background time and the background
/// URLSession (docs/simulator.md §Subsystems), and the boundary: no subsystem knows the
/// keep-alive machine's types.
@Suite struct SubsystemTests {
    let start = Instant(seconds: 1_700_000_000)

    @Test func aCallInterruptsTheAudioAndRefusesNewPlaybackUntilItEnds() {
        var audio = AudioSession()
        let first = audio.play()
        #expect(first != nil && audio.playing)
        let interrupted = audio.callBegan()
        #expect(interrupted && !audio.playing)
        let duringCall = audio.play()
        #expect(duringCall == nil)
        audio.callEnded()
        let second = audio.play()
        #expect(second != nil && audio.playing)
        audio.clipEnded(first ?? 0)  // an earlier clip's end does not stop the newer one
        #expect(audio.playing)
        audio.clipEnded(second ?? 0)
        #expect(!audio.playing)
        let silentCall = audio.callBegan()
        #expect(!silentCall)  // nothing playing: no interruption to tell
    }

    @Test func backgroundTasksHoldTheAppOnlyWithinTheStintAndNewOnesAreRefusedNearItsEnd() {
        var time = BackgroundTime()
        let token = BackgroundTaskToken(rawValue: 1)
        let open = time.begin(token)
        #expect(open == 1)
        #expect(!time.taskHolds(at: start))  // the foreground has no stint
        time.stintDeadline = start + .seconds(30)
        #expect(time.taskHolds(at: start + .seconds(29)))
        #expect(!time.taskHolds(at: start + .seconds(30)))
        #expect(!time.refusesNewTasks(at: start + .seconds(20), lead: .seconds(5)))
        #expect(time.refusesNewTasks(at: start + .seconds(25), lead: .seconds(5)))
        let ended = time.end(token)
        let endedAgain = time.end(token)
        #expect(ended && !endedAgain)  // the second time the system no longer holds it
        time.wakeEnd = start + .seconds(10)
        time.extendWake(until: start + .seconds(5))
        #expect(time.wakeEnd == start + .seconds(10))  // a wake never shortens the runtime granted
        _ = time.begin(token)
        time.processEnded()
        #expect(time.openTasks.isEmpty && time.stintDeadline == nil && time.wakeEnd == nil)
    }

    @Test func theBackgroundSessionHoldsOneUploadAndItsAnswerOnceAndItsDelayDoublesWithResumes() {
        var session = BackgroundURLSession()
        let transfer = BackgroundURLSession.Transfer(samples: [], startsAt: start, description: "batch-1")
        let first = session.handOff(transfer)
        let second = session.handOff(
            BackgroundURLSession.Transfer(samples: [], startsAt: start, description: "batch-2"))
        #expect(first && !second)
        #expect(session.inFlight == ["batch-1"])
        let unsent = session.takeAnswer()
        #expect(unsent == nil)  // not sent yet
        let told = session.waitForNetwork()
        let toldAgain = session.waitForNetwork()
        #expect(told && !toldAgain)  // the peer hears of the outage once
        session.finished(.tooLarge)
        let answer = session.takeAnswer()
        let again = session.takeAnswer()
        #expect(answer?.description == "batch-1" && answer?.outcome == .tooLarge)
        #expect(again == nil && session.inFlight.isEmpty)

        let base = Duration.seconds(60)
        #expect(session.startDelay(base: base, discretionary: .seconds(600), charging: true) == .zero)
        session.resumedApp()
        session.resumedApp()
        session.resumedApp()
        #expect(session.startDelay(base: base, discretionary: .seconds(600), charging: true) == .seconds(240))
        #expect(session.startDelay(base: base, discretionary: .seconds(600), charging: false) == .seconds(840))
        session.userOpened()
        #expect(session.startDelay(base: base, discretionary: .seconds(600), charging: true) == .zero)
    }

    @Test func exitReportsCoverEndedPeriodsWithExitsOnlyAndAreTakenOnce() {
        var reports = ExitReports()
        let day = Duration.seconds(86_400)
        reports.count(.memoryPressure)
        reports.count(.memoryPressure)
        reports.closePeriods(at: start + .seconds(3600), from: start, period: day)
        let early = reports.takeDue()
        #expect(early == nil)  // the period is still open
        reports.closePeriods(at: start + day * 2, from: start, period: day)  // the second has no exits
        let due = reports.takeDue()
        let none = reports.takeDue()
        #expect(due?.begin == start && due?.end == start + day)
        #expect(due?.counts == [.memoryPressure: 2])
        #expect(none == nil)
    }

    /// The simulator and the shell's host speak iOS (`SystemCall`, `AppCallback`,
    /// `SystemSettings`): none of their files names the keep-alive machine's types, and the
    /// simulator names no machine at all (the login's heartbeat is the shell's; the host only
    /// implements the shell's heartbeat seam).
    @Test func noSimulatorFileNamesTheKeepAliveMachinesTypes() throws {
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let keepAlive = ["KeepAliveMachine", "KeepAliveEvent", "KeepAliveEnvironment", "BackgroundTaskLedger"]
        let machines = keepAlive + ["HeartbeatMachine", "SyncMachine", "SamplingMachine"]
        var found: [String] = []
        var files = 0
        for (folder, forbidden) in [("Sources/IOSSimulator", machines), ("Sources/IOSShellHost", keepAlive)] {
            let walker = FileManager.default.enumerator(
                at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = walker?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                files += 1
                let text = try String(contentsOf: file, encoding: .utf8)
                for name in forbidden where text.contains(name) {
                    found.append("\(file.path.dropFirst(root.path.count + 1)): \(name)")
                }
            }
        }
        #expect(files > 50)
        #expect(found.isEmpty, "the simulator should speak iOS's vocabulary, not the machine's: \(found)")
    }
}
