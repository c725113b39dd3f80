import AppleShadow
import BackgroundCore
import Foundation
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    @Suite("Notices and location sessions")
    @MainActor
    struct NoticeAndSessionTests {
        @Test("a notice becomes a UNNotificationRequest delivered at once, with the notice's text")
        func noticeBecomesRequest() throws {
            let harness = try ShellHarness()
            harness.system.authorization = .denied
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()

            let request = try #require(
                harness.system.notificationRequests.first {
                    $0.identifier == "com.backgroundtracker.notice.location-denied"
                })
            #expect(request.content.body == UserNotice.locationDenied.message)
            #expect(request.content.title == NoticeAdapter.title)
            #expect(request.trigger == nil, "delivered at once")
            #expect(tracker.didReceiveNotificationResponse(requestIdentifier: request.identifier))
            #expect(!tracker.didReceiveNotificationResponse(requestIdentifier: "the-app's-own"))
        }

        @Test("stop() cancels the pending dead-man notice")
        func stopCancelsDeadMan() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            tracker.stop()
            #expect(harness.system.removedNotifications.contains(NoticeAdapter.deadManIdentifier))
            #expect(harness.system.openTasks.isEmpty)
        }

        /// Runs the activity-session strategy with When-In-Use in the foreground, then relaunches
        /// the app in the background (a location event) on `ios`, over the same files.
        private func relaunchInBackground(ios: Int) throws -> (FakeSystem, Tracker, ShellHarness) {
            let first = try ShellHarness()
            first.system.authorization = .authorizedWhenInUse
            let before = try first.tracker(.activitySession, ios: ios)
            before.didFinishLaunching(nil)
            before.start()
            #expect(first.system.activitySessions.count == 1, "begun in the foreground")

            // The process dies; iOS relaunches it in the background.
            let system = FakeSystem()
            system.authorization = .authorizedWhenInUse
            system.applicationState = .background
            let second = try ShellHarness(system: system, store: first.store, directory: first.directory)
            let after = try second.tracker(.activitySession, ios: ios)
            after.didFinishLaunching([.location: true])
            return (system, after, second)
        }

        @Test("iOS 18 relaunch: the CLServiceSession and the activity session are recreated at once")
        func relaunchOnIOS18() throws {
            let (system, _, _) = try relaunchInBackground(ios: 18)
            #expect(system.serviceSessions.values.contains(.whenInUse))
            #expect(system.activitySessions.count == 1)
            let service = try #require(system.trace.firstIndex(of: "CLServiceSession(whenInUse)"))
            let firstManager = try #require(system.trace.firstIndex(of: "CLLocationManager()"))
            #expect(service > firstManager)
            #expect(!system.trace[..<service].contains("startUpdatingLocation"), "recreated before services restart")
        }

        @Test("iOS 17 relaunch: no activity session in the background, recreated on coming to the foreground")
        func relaunchOnIOS17() throws {
            let (system, tracker, _) = try relaunchInBackground(ios: 17)
            #expect(system.serviceSessions.isEmpty, "CLServiceSession needs iOS 18")
            #expect(system.activitySessions.isEmpty, "iOS 17 allows it only in the foreground")

            system.applicationState = .active
            tracker.applicationWillEnterForeground()
            #expect(system.activitySessions.count == 1)
        }
    }
}
