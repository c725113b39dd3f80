import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// Issue 26: the shell reads the battery and the charger for the strategy, and a sample it
    /// records carries both, as read back from the phone's store (what the server receives).
    @Suite("A recorded sample carries the battery and the charger")
    @MainActor
    struct StoredPowerTests {
        @Test(
            "the stored row has the level and charging state iOS reports (unknown stays unknown)",
            arguments: [
                (Float(0.42), UIDevice.BatteryState.charging, Double(Float(0.42)) as Double?, true as Bool?),
                (1, .full, 1, true),
                (0.3, .unplugged, Double(Float(0.3)), false),
                (-1, .unknown, nil, nil),
            ])
        func storedSampleCarriesPower(
            level: Float, state: UIDevice.BatteryState, battery: Double?, charging: Bool?
        ) throws {
            let harness = try ShellHarness()
            harness.system.batteryLevel = level
            harness.system.batteryState = state
            _ = try harness.trackingWithOneSample()
            let stored = try harness.store.oldestPending(limit: 10)
            #expect(stored.count == 1)
            #expect(stored.first?.battery == battery)
            #expect(stored.first?.charging == charging)
        }
    }
}
