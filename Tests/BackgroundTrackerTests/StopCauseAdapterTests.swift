import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// Issue 40 item 3 in the shell (docs/ios-policy.md §Causes): it listens to its iOS 18 service
    /// session's diagnostics and subscribes to MetricKit, and puts what they say on its gaps and
    /// in `status.lastStopCause`.
    @Suite("Stop causes in the shell")
    @MainActor
    struct StopCauseAdapterTests {
        @Test("iOS 18: the service session's diagnostic opens location-withheld and tells the user why")
        func diagnosticReachesTheGapsAndTheStatus() throws {
            let system = FakeSystem()
            system.authorization = .authorizedWhenInUse
            let harness = try ShellHarness(system: system)
            let tracker = try harness.tracker(.activitySession, ios: 18)
            tracker.didFinishLaunching(nil)
            tracker.start()
            let session = try #require(system.serviceSessions.keys.first, "a CLServiceSession on iOS 18")
            #expect(CoreLocationShadow.deliverDiagnostic([.insufficientlyInUse], toSession: session))
            #expect(try harness.store.openGaps()[.locationWithheld]?.detail == StopCause.insufficientlyInUse.words)
            #expect(tracker.status.lastStopCause == "Location stopped: When In Use only, and the app was not in use")
            // The all-clear ends it.
            #expect(CoreLocationShadow.deliverDiagnostic([], toSession: session))
            #expect(try harness.store.openGaps()[.locationWithheld] == nil)
        }

        @Test("a diagnostic's properties map to their causes, in the table's order")
        func diagnosticProperties() {
            let flags: CLShadowDiagnosticFlags = [
                .authorizationDeniedGlobally, .fullAccuracyDenied, .serviceSessionRequired,
                .authorizationRequestInProgress,
            ]
            let session = CLServiceSession(authorization: .whenInUse)
            var heard: [[StopCause]] = []
            session.diagnostics.shadowObserve { heard.append(Tracker.causes(of: $0)) }
            CoreLocationShadow.deliverDiagnostic(flags, toSession: ObjectIdentifier(session))
            #expect(heard == [[.authorizationDeniedGlobally, .fullAccuracyDenied, .serviceSessionRequired]])
        }

        @Test("MetricKit: subscribed at launch; a report's exit counts go on the kill gap and the status")
        func metricKitReport() throws {
            let harness = try ShellHarness()
            // A kill the phone recorded and the server already has.
            try harness.store.append(
                LocationFix(
                    timestamp: harness.clock.now - .seconds(3600), latitude: 31.2, longitude: 121.4,
                    horizontalAccuracy: 10), trigger: .timer, state: .background)
            try harness.store.noteLaunch(.system("a location event"), at: harness.clock.now - .seconds(1800))
            try harness.store.append(
                LocationFix(
                    timestamp: harness.clock.now - .seconds(1700), latitude: 31.2, longitude: 121.4,
                    horizontalAccuracy: 10), trigger: .significant, state: .background)
            let kill = try #require(try harness.store.pendingGaps(limit: 10).first)
            try harness.store.acknowledgeGaps([kill.id])

            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            #expect(harness.system.metricSubscribers.count == 1)
            harness.system.deliverMetricReport(
                MXMetricPayload(
                    shadowBegin: Date(timeIntervalSince1970: (harness.clock.now - .seconds(86_400)).seconds),
                    end: Date(timeIntervalSince1970: harness.clock.now.seconds),
                    backgroundExits: ["memoryPressure": 1, "abnormal": 1]))
            let expected = "cause one of: iOS needed the memory for other apps ×1, the app crashed ×1 (MetricKit)"
            #expect(tracker.status.lastStopCause == "The app was ended by iOS: " + expected)
            let again = try #require(try harness.store.pendingGaps(limit: 10).first { $0.id == kill.id })
            #expect(again.interval.detail?.hasSuffix(expected) == true, "\(again.interval)")
        }
    }
}
