import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// What the example app's map and share sheet read from the tracker.
    @Suite("Recent samples and the diagnostics report")
    @MainActor
    struct InspectionTests {
        @Test("the map gets the newest samples first, bounded, and the report never holds the token")
        func recentSamplesAndReport() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            for index in 0..<5 {
                let fix = LocationFix(
                    timestamp: Instant(seconds: 1_750_000_000 + Double(index) * 120),
                    latitude: 31.2 + Double(index) / 1000,
                    longitude: 121.4, horizontalAccuracy: 10)
                _ = try harness.store.append(fix, trigger: .timer, state: .background)
            }
            try harness.store.log(.warning, "upload failed (HTTP 503); samples kept", at: harness.clock.now)

            let recent = tracker.recentSamples(limit: 3)
            #expect(recent.map(\.seq) == [5, 4, 3])
            #expect(tracker.recentSamples(limit: -1).isEmpty)
            #expect(tracker.recentSamples().count == 5)

            let report = tracker.diagnosticsReport()
            #expect(report.contains("strategy: adaptive"))
            #expect(report.contains("device: test-phone"))
            #expect(report.contains("upload failed (HTTP 503); samples kept"))
            #expect(!report.contains("secret-token"))
        }
    }
}
