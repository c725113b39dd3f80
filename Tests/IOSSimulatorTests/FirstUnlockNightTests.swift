import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LocationLog
import LocationLogTesting
import Testing

/// The phone restarts at 03:10 and stays locked until 07:30 (issue 40, must-show 1): location
/// events relaunch the app meanwhile with its files closed, as on a phone.
@MainActor @Suite("A night with a reboot: relaunched before the first unlock")
struct FirstUnlockNightTests {
    /// The timeline lines from `from` to `to` (both "HH:MM"), times as the report prints them.
    static func lines(_ timeline: [String], from: String, to: String) -> [String] {
        timeline.filter { line in
            let time = String(line.prefix(5))
            return time >= from && time < to
        }
    }

    @Test("location relaunches before 07:30 recreate the session and keep every sample; nothing is lost")
    func nightShift() throws {
        // Memory kills raised so that the process dies between location events: each event after
        // a kill is a relaunch (seed 3 gives a significant change, a region exit and a visit).
        var simulation = Simulation(
            SimulationConfiguration(
                strategy: .adaptive, ios: 18, app: IOSShell(), scenario: .nightShift(), seed: 3,
                memoryKillFactor: 100, recordsTimeline: true))
        let report = simulation.run()
        #expect(report.invariantViolations == 0, "\(report.violationExamples)")
        let timeline = try #require(report.timeline)
        let locked = Self.lines(timeline, from: "03:10", to: "07:30")
        let launches = locked.filter { $0.contains(" launched (") }
        #expect(launches.count >= 3, "\(locked)")
        for reason in ["significantChange", "regionExit", "visit"] {
            #expect(launches.contains { $0.contains("launched (\(reason))") }, "\(launches)")
        }
        for launch in launches {
            let time = launch.prefix(8)
            #expect(
                locked.contains { $0.hasPrefix(time) && $0.contains("CLServiceSession(whenInUse) created") },
                "the session is recreated at once at the relaunch of \(time)")
        }
        let moved = try #require(timeline.first { $0.contains("taken before the first unlock moved into the store") })
        #expect(moved.hasPrefix("07:30"), "\(moved)")
        let count = Int(moved.split(separator: " ")[2]) ?? 0
        #expect(count > 60, "about 3 h of samples, every 2 min: \(moved)")
        #expect(report.samplesOnServer + report.samplesPending > count)
        // The server's gaps: the reboot's silence with its cause, and none across the held samples.
        let start = Scenario.defaultStart
        func at(_ hours: Double) -> Instant { start + .milliseconds(Int64(hours * 3_600_000)) }
        let gaps = simulation.serverGaps
        let restart = try #require(gaps.first { $0.detail?.hasPrefix("the phone restarted") == true }, "\(gaps)")
        #expect(restart.reason == .terminatedBySystem)
        #expect(restart.start < at(3 + 10 / 60.0) && restart.end >= at(3 + 40 / 60.0) && restart.end < at(4))
        #expect(!gaps.contains { $0.start < at(7) && $0.end > at(7.5) }, "no gap spans the held samples: \(gaps)")
    }

    @Test("without a time for it, the first unlock comes after the policy table's delay")
    func unlockAfterTheTablesDelay() throws {
        var scenario = Scenario.commute()
        scenario.happenings.append((3 * 3600, .reboot))
        var simulation = Simulation(
            SimulationConfiguration(
                strategy: .adaptive, ios: 17, app: IOSShell(), scenario: scenario, recordsTimeline: true))
        let report = simulation.run()
        #expect(report.invariantViolations == 0, "\(report.violationExamples)")
        let timeline = try #require(report.timeline)
        #expect(timeline.contains { $0.hasPrefix("03:01:00 first unlock since the reboot") }, "\(timeline.prefix(60))")
    }
}

/// The simulated disk closes its files from a reboot to the first unlock, as data protection
/// closes a `completeUntilFirstUserAuthentication` file: a store on it can neither be read nor
/// written meanwhile, and loses nothing.
@Suite("The simulated disk: locked until the first unlock")
struct SimulatedDiskLockTests {
    @Test("locked: writes and reads fail with SQLite's I/O error; unlocked: the store is as it was")
    func lockedStoreRefusesIO() throws {
        let disk = try SimulatedDisk()
        let start = Instant(seconds: 1_750_000_000)
        let (store, _) = try LocationStore.open(path: disk.storePath, now: start)
        let fix = LocationFix(timestamp: start, latitude: 31.2, longitude: 121.4, horizontalAccuracy: 10)
        try store.append(fix, trigger: .timer, state: .background)
        disk.lock()
        #expect(throws: StoreError.self) {
            try store.append(fix, trigger: .timer, state: .background)
        }
        #expect(throws: StoreError.self) { try store.pendingCount() }
        #expect(throws: StoreError.self) { try LocationStore.open(path: disk.storePath, now: start) }
        #expect(disk.lockedRefusals > 0)
        disk.unlock()
        #expect(try store.pendingCount() == 1, "the sample stored before the reboot is there")
        try store.append(fix, trigger: .timer, state: .background)
        #expect(try store.pendingCount() == 2)
    }
}
