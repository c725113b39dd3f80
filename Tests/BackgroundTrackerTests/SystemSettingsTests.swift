import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// Low Power Mode, the battery and the Location Services switch are read from the system and
    /// reach the strategy (issue 8 item 4's rule, on the phone: settings changed while suspended
    /// are heard at the next wake).
    @Suite("System settings reach the strategy")
    @MainActor
    struct SystemSettingsTests {
        @Test("launch turns battery monitoring on and hands the strategy the real settings")
        func launchReadsTheSystem() throws {
            let harness = try ShellHarness()
            harness.system.lowPowerModeEnabled = true
            harness.system.batteryLevel = 0.15
            harness.system.batteryState = .unplugged
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            #expect(harness.system.batteryMonitoringEnabled)
            let environment = try #require(tracker.machine?.context.environment)
            #expect(environment.lowPowerMode)
            #expect(environment.batteryLevel == Double(Float(0.15)))
            #expect(environment.batteryIsLow)
            #expect(environment.locationServicesEnabled)
        }

        @Test("a change while running is delivered once; an unknown battery counts as full")
        func changesAreDelivered() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            #expect(tracker.machine?.context.environment.lowPowerMode == false)

            harness.system.lowPowerModeEnabled = true
            harness.system.batteryState = .charging
            tracker.systemSettingsChanged()  // what the NSProcessInfoPowerStateDidChange observer calls
            #expect(tracker.machine?.context.environment.lowPowerMode == true)
            #expect(tracker.machine?.context.environment.charging == true)

            // Switching Location Services off reaches an app as an authorisation change to
            // `.denied`; the shell then asks which it is, off the main thread.
            harness.system.servicesSwitch = false
            let manager = try #require(tracker.location?.updates)
            manager.delegate?.locationManagerDidChangeAuthorization(manager)
            #expect(tracker.machine?.context.environment.locationServicesEnabled == false)
            #expect(harness.system.servicesQueries.onMain == 0, "never on the main thread")
            #expect(harness.system.servicesQueries.elsewhere == 1)
            // The machine tells the user Location Services are off: one notice, not one per call.
            manager.delegate?.locationManagerDidChangeAuthorization(manager)
            tracker.systemSettingsChanged()
            let notices = harness.system.trace.filter {
                $0.contains("add notification") && $0.contains("location-services-off")
            }
            #expect(notices.count == 1, "\(harness.system.trace.filter { $0.contains("notification") })")

            harness.system.backgroundRefreshStatus = .denied
            tracker.systemSettingsChanged()  // what the backgroundRefreshStatusDidChange observer calls
            #expect(tracker.machine?.context.environment.backgroundRefreshAvailable == false)
            harness.system.backgroundRefreshStatus = .restricted
            #expect(!tracker.environment().backgroundRefreshAvailable)
            harness.system.backgroundRefreshStatus = .available
            #expect(tracker.environment().backgroundRefreshAvailable)

            harness.system.batteryMonitoringEnabled = false  // iOS then reports -1 and .unknown
            #expect(tracker.environment().batteryLevel == 1)
            #expect(!tracker.environment().charging)
        }
    }
}
