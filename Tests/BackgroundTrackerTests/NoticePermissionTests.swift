import AppleShadow
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// Issue 40, observation 5: the notices reach the user only with notification permission
    /// (docs/ios-policy.md §Notifications). The status says when they cannot, `add`'s error is
    /// reported, and the host app has a call to ask at the right moment.
    @Suite("Notification permission")
    @MainActor
    struct NoticePermissionTests {
        @Test("the status says notices are off until the app asks, and the user's denial after")
        func statusSaysNoticesAreOffWhenDenied() throws {
            let harness = try ShellHarness()
            harness.system.notificationStatus = .notDetermined
            harness.system.notificationAnswer = .denied
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            #expect(tracker.status.noticePermission == .notDetermined)
            #expect(tracker.status.noticePermission.problem?.hasPrefix("notices off") == true)

            tracker.requestNoticePermission()
            tracker.start()
            let options = try #require(harness.system.authorizationRequests.first)
            #expect(options.contains(.alert) && !options.contains(.provisional), "the prompt, not quiet delivery")
            #expect(tracker.status.noticePermission == .denied)
            let problem = try #require(tracker.status.noticePermission.problem)
            #expect(problem.contains("notices off: the user denied notifications"))
            #expect(problem.contains("tracking continues but you won't be warned if it stops"))
            #expect(tracker.status.isTracking, "tracking goes on without notices")
            #expect(tracker.diagnosticsReport().contains("notification permission: denied"))
        }

        @Test("add's error is reported in the status and the diagnostics, not ignored")
        func addErrorIsReported() throws {
            let harness = try ShellHarness()
            harness.system.notificationStatus = .denied
            harness.system.authorization = .denied  // start() posts the location-denied notice
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()

            #expect(harness.system.refusedNotifications.contains("com.backgroundtracker.notice.location-denied"))
            #expect(harness.system.notificationRequests.isEmpty, "iOS keeps nothing it refused")
            let refused = try #require(tracker.status.noticeRefused)
            #expect(refused.contains("location-denied"))
            #expect(refused.contains("UNError.notificationsNotAllowed"))
            let report = tracker.diagnosticsReport()
            #expect(report.contains("notice refused: \(refused)"))
            #expect(report.contains("warning iOS did not show the location-denied notice"))
        }

        @Test("provisional: no prompt, notices delivered quietly, and the status says so")
        func provisionalIsQuiet() throws {
            let harness = try ShellHarness()
            harness.system.notificationStatus = .notDetermined
            harness.system.notificationAnswer = .denied  // never shown: a provisional request has no prompt
            harness.system.authorization = .denied
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.requestNoticePermission(provisional: true)
            tracker.start()

            #expect(tracker.status.noticePermission == .quiet)
            #expect(tracker.status.noticePermission.problem?.hasPrefix("notices quiet") == true)
            #expect(tracker.status.noticeRefused == nil)
            #expect(
                harness.system.notificationRequests.contains {
                    $0.identifier == "com.backgroundtracker.notice.location-denied"
                })
        }

        @Test("notifications switched off in Settings are noticed at the return to the foreground")
        func settingsChangeIsReadInTheForeground() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.requestNoticePermission()
            #expect(tracker.status.noticePermission == .allowed)
            #expect(tracker.status.noticePermission.problem == nil)

            tracker.applicationDidEnterBackground()
            harness.system.notificationStatus = .denied
            tracker.applicationWillEnterForeground()
            #expect(tracker.status.noticePermission == .denied)
        }

        /// `bgtrack simulate --notifications deny`: the simulated user refuses the prompt the shell
        /// shows when tracking is turned on, then location goes off at noon.
        func hostedDay(_ answer: NotificationAnswer) -> SimulationReport {
            var scenario = Scenario.commute()
            scenario.happenings.append((at: 12 * 3600, .locationServices(false)))
            var configuration = SimulationConfiguration(
                strategy: .adaptive, ios: 17, app: IOSShell(), scenario: scenario, hours: 14, recordsTimeline: true)
            configuration.notifications = answer
            var simulation = Simulation(configuration)
            return simulation.run()
        }

        @Test("through the simulator: denied, the user is shown nothing and the status says notices are off")
        func hostedDenied() throws {
            let allowed = hostedDay(.allow)
            #expect(allowed.notificationAuthorization == "authorized")
            #expect(!allowed.deadManNotices.isEmpty, "with permission the stop is announced")
            #expect(allowed.appStatus.contains("notification permission: allowed"))

            let denied = hostedDay(.deny)
            #expect(denied.invariantViolations == 0, "\(denied.violationExamples)")
            #expect(denied.notificationAuthorization == "denied")
            #expect(denied.deadManNotices.isEmpty)
            #expect((denied.notificationsNotShown[DeadManNotice.kind] ?? 0) > 0)
            #expect(denied.appStatus.contains("notification permission: denied"))
            #expect(denied.appStatus.contains { $0.hasPrefix("notices off: the user denied notifications") })
            #expect(denied.notificationsNotShown[DeadManNotice.kind] == 1, "one stop, one warning missed")
            #expect(
                denied.timeline?.contains { $0.contains("shell: status: iOS did not show the dead-man notice") } == true
            )
            #expect(denied.timeline?.contains { $0.contains("requestAuthorization: denied") } == true)
        }
    }
}
