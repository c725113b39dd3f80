import BackgroundCore
import IOSShellHost
import Testing

@testable import IOSSimulator

/// The simulated motion coprocessor (docs/ios-policy.md §Motion): what it reports from the truth,
/// when, and to which process.
@MainActor @Suite struct MotionCoprocessorTests {
    let start = Instant(milliseconds: 0)
    let home = Coordinate(latitude: 31.2304, longitude: 121.4737)

    @Test func reportsEachLastingChangeALatencyAfterItBeganClassifiedBySpeed() {
        let shop = home.offset(north: 600, east: 0)
        let park = shop.offset(north: 0, east: 3_000)
        let track = MovementTrack(
            start: start, origin: home,
            legs: [
                .stay(until: 600),
                .move(through: [shop], speed: 1.2),  // 500 s walking
                .stay(until: 1_130),  // a 30 s stop: shorter than the latency, never reported
                .move(through: [park], speed: 5),  // 600 s cycling
                .stay(until: 5_000),
            ])
        let reports = MotionCoprocessor.reports(for: track, latency: .seconds(60))
        #expect(reports.map(\.activity.kind) == [.stationary, .walking, .cycling, .stationary])
        // The cycling leg's length is the track's geometry (within a metre of 3 km).
        let expected: [Duration] = [.zero, .seconds(660), .seconds(1_190), .seconds(1_790)]
        #expect(zip(reports.map { $0.at - start }, expected).allSatisfy { abs(($0 - $1).seconds) < 1 })
        #expect(reports.count == expected.count)
        #expect(reports.allSatisfy { $0.activity.confidence == .high })
        #expect(MotionCoprocessor.kind(speed: 3, moving: true, underground: false) == .running)
        #expect(MotionCoprocessor.kind(speed: 12, moving: true, underground: false) == .automotive)
        #expect(MotionCoprocessor.kind(speed: 1, moving: true, underground: true) == .automotive)
    }

    @Test func theHandlerHearsOnlyWhatItHasNotHeardAndNothingAfterTheProcessDied() {
        var motion = MotionCoprocessor()
        motion.detected(MotionActivity(.stationary, confidence: .high))
        var heard = motion.takeUndelivered()
        #expect(heard == nil)  // updates not started
        let first = motion.start()
        let second = motion.start()
        #expect(first && !second)
        heard = motion.takeUndelivered()
        #expect(heard == MotionActivity(.stationary, confidence: .high))
        heard = motion.takeUndelivered()
        #expect(heard == nil)
        motion.detected(MotionActivity(.walking, confidence: .high))
        motion.processEnded()
        heard = motion.takeUndelivered()
        #expect(heard == nil)
    }

    func run(
        _ strategy: StrategyName = .adaptive, auth: LocationAuthorization = .always,
        motion: SimulationConfiguration.MotionAccess = .authorized, plist: InfoPlist? = nil, ios: Int = 17
    ) -> SimulationReport {
        var configuration = SimulationConfiguration(
            strategy: strategy, ios: ios, app: IOSShell(), authorization: auth, scenario: .homeDay(),
            recordsTimeline: true)
        configuration.motion = motion
        configuration.plist = plist
        var simulation = Simulation(configuration)
        return simulation.run()
    }

    @Test func adaptiveHearsTheWalkAndTakesADepartureFixThenUnlikeWithoutMotion() {
        let with = run()
        let without = run(motion: .denied)
        #expect(with.invariantViolations == 0, "\(with.violationExamples)")
        // The day's first activity, the walk, and standing still again.
        #expect(with.motionActivities == 3)
        #expect(without.motionActivities == 0)
        #expect(with.timeline?.contains { $0.contains("motion updates") } == false)
        // The shell asks `authorizationStatus()` first and starts no updates it would not get.
        #expect(without.timeline?.contains { $0.contains("motion updates") } == false)
        // Setting off takes a departure fix beyond the slot's sample (and the walk's next slot is
        // GPS): one more sample, the same slots, a little more energy. The day's GPS total is no
        // measure of it: the extra fix shifts the random draws of the rest of the day.
        #expect(with.samplesRecorded == with.samplesCaptured + 1)
        #expect(without.samplesRecorded == without.samplesCaptured)
        #expect(abs(with.energyMwh - without.energyMwh) < 1)
        #expect(with.samplesCaptured == without.samplesCaptured)
    }

    @Test func deniedUnavailableAndNoUsageKeyAreTheSameDayAsWithoutACoprocessor() {
        var noKey = InfoPlist.minimal(for: .adaptive)
        noKey.hasMotionUsage = false
        let denied = run(motion: .denied)
        // iOS 6 has no motion activity at all (CMMotionActivityManager is iOS 7+).
        #expect(run(ios: 6).motionActivities == 0)
        for other in [run(motion: .unavailable), run(plist: noKey)] {
            #expect(other.motionActivities == 0)
            #expect(other.samplesCaptured == denied.samplesCaptured)
            #expect(other.energyMwh == denied.energyMwh)
        }
    }

    @Test func aSuspendedAppHearsNothingAndNothingRunsWhileItIsSuspended() throws {
        // Location denied: iOS suspends adaptive a few seconds after it leaves the screen and
        // wakes it only for refresh tasks, none during the walk (15:00-15:07:28, reported at
        // 15:01:00 and 15:08:28). The walk is never heard; the user's openings at 09:00 and 19:00
        // are runs of the app, where it hears the newest activity again after a relaunch.
        let report = run(auth: .denied)
        #expect(report.invariantViolations == 0, "\(report.violationExamples)")
        let heard = try #require(report.timeline).filter { $0.contains("motion activity:") }
        #expect(!heard.contains { $0.contains("walking") }, "\(heard)")
        #expect(!heard.isEmpty)
        // Running through the walk (Always), the app hears it a latency after it began.
        let always = try #require(run().timeline).filter { $0.contains("motion activity:") }
        #expect(
            always == [
                "00:00:00 motion activity: stationary", "15:01:00 motion activity: walking",
                "15:08:28 motion activity: stationary",
            ])
    }
}
