import AppleShadow
import BackgroundCore
import Foundation
import IOSSimulator
import LocationLog
import Testing

@testable import BackgroundTracker
@testable import IOSShellHost

extension ShellSuite {
    /// The shell reads the motion coprocessor for `adaptive` only where iOS lets it
    /// (docs/ios-policy.md §Motion), and the simulated system enforces the usage key.
    @Suite("Motion activity reaches adaptive")
    @MainActor
    struct MotionAdapterTests {
        @Test("adaptive starts activity updates, and an activity reaches the keep-alive machine")
        func startsAndDelivers() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            #expect(harness.system.trace.filter { $0 == "CMMotionActivityManager.startActivityUpdates" }.count == 1)
            // Started once, however often the strategy asks (every launch, wake and return).
            tracker.applicationDidEnterBackground()
            tracker.applicationWillEnterForeground()
            #expect(harness.system.trace.filter { $0 == "CMMotionActivityManager.startActivityUpdates" }.count == 1)
            let handler = try #require(harness.system.motionHandler)
            // On the main queue, as the adapter asked: the handler hands it to the machine at once.
            handler(
                CMMotionActivity(
                    shadowStationary: true, automotive: true, confidence: .high,
                    startDate: Date(timeIntervalSince1970: 0)))
            #expect(tracker.machine != nil)
            tracker.stop()
            #expect(harness.system.trace.contains("CMMotionActivityManager.stopActivityUpdates"))
        }

        @Test("no usage key, no coprocessor, or Motion & Fitness denied: updates never start")
        func refusals() throws {
            var noKey = AppInfo(InfoPlist.minimal(for: .adaptive))
            noKey.hasMotionUsage = false
            for (info, available, status) in [
                (noKey, true, CMAuthorizationStatus.authorized),
                (AppInfo(InfoPlist.minimal(for: .adaptive)), false, .authorized),
                (AppInfo(InfoPlist.minimal(for: .adaptive)), true, .denied),
                (AppInfo(InfoPlist.minimal(for: .adaptive)), true, .restricted),
            ] {
                let harness = try ShellHarness()
                harness.system.motionActivityAvailable = available
                harness.system.motionAuthorizationStatus = status
                let tracker = try harness.tracker(.adaptive, appInfo: info)
                tracker.didFinishLaunching(nil)
                tracker.start()
                #expect(!harness.system.trace.contains("CMMotionActivityManager.startActivityUpdates"))
            }
        }

        @Test("Core Motion's flags become one kind: a moving one wins over stationary")
        func flags() {
            let date = Date(timeIntervalSince1970: 0)
            #expect(
                MotionActivity(
                    coreMotion: CMMotionActivity(
                        shadowStationary: true, automotive: true, confidence: .medium, startDate: date))
                    == MotionActivity(.automotive, confidence: .medium))
            #expect(
                MotionActivity(coreMotion: CMMotionActivity(shadowStationary: true, confidence: .high, startDate: date))
                    == MotionActivity(.stationary, confidence: .high))
            #expect(
                MotionActivity(coreMotion: CMMotionActivity(confidence: .low, startDate: date))
                    == MotionActivity(.unknown, confidence: .low))
        }

        @Test("starting activity updates without NSMotionUsageDescription crashes the app; with it, not")
        func usageKey() {
            var noKey = InfoPlist.minimal(for: .adaptive)
            noKey.hasMotionUsage = false
            for (plist, crashes) in [(InfoPlist.minimal(for: .adaptive), false), (noKey, true)] {
                let system = SimulatedSystemContractTests.system(plist)
                SimulatedSystemContractTests.installed(system) {
                    CMMotionActivityManager().startActivityUpdates(to: OperationQueue.main) { _ in }
                }
                #expect(system.runtime.contains(.crash(.motionWithoutUsageDescription)) == crashes)
                #expect(system.effects.contains(.coreMotion(.startActivityUpdates)) == !crashes)
            }
        }

        func hostedHomeDay(motion: SimulationConfiguration.MotionAccess) -> SimulationReport {
            var configuration = SimulationConfiguration(
                strategy: .adaptive, ios: 17, app: IOSShell(), scenario: .homeDay(), recordsTimeline: true)
            configuration.motion = motion
            var simulation = Simulation(configuration)
            return simulation.run()
        }

        @Test("the hosted shell hears the coprocessor as the direct run does; denied, nothing")
        func hosted() {
            let hosted = hostedHomeDay(motion: .authorized)
            #expect(hosted.invariantViolations == 0, "\(hosted.violationExamples)")
            #expect(hosted.crashes.isEmpty)
            #expect(hosted.motionActivities == 3)
            #expect(hosted.timeline?.contains { $0.contains("no activity manager of the app asked") } == false)
            let denied = hostedHomeDay(motion: .denied)
            #expect(denied.motionActivities == 0)
            // Only when the coprocessor is heard does the walk's setting off take a departure fix
            // beyond its slot's sample (the day's GPS total is no measure of it: the extra fix
            // shifts the random draws of the rest of the day).
            #expect(hosted.samplesRecorded == hosted.samplesCaptured + 1)
            #expect(denied.samplesRecorded == denied.samplesCaptured)
        }
    }
}
