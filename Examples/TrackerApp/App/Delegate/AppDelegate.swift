// Builds in Xcode as part of the app (one target, ../../project.yml). On Linux it is checked
// against a real iPhoneOS SDK as a module of its own, importing the model's module (docs/development.md,
// "Compiled on Linux against AppleShadow, checked against the iOS SDK"); the app's views cannot be
// (iOS 17 SwiftUI and MapKit API the SDK lacks).
import UIKit
import UserNotifications

#if canImport(TrackerAppModel)
    import TrackerAppModel
#endif

/// What only an app delegate receives, forwarded to the tracker.
final class AppDelegate: NSObject, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    @MainActor let model = TrackerModel()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        UNUserNotificationCenter.current().delegate = self
        // The tracker registers its BGTaskScheduler identifiers here, before launch finishes.
        // Notification permission is asked when the user starts tracking (TrackerModel.start).
        MainActor.assumeIsolated { model.didFinishLaunching(options) }
        return true
    }

    /// The first unlock after a reboot, when the app was relaunched before it: the tracker's
    /// store and the app's settings open now.
    func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        MainActor.assumeIsolated { model.protectedDataDidBecomeAvailable() }
    }

    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        MainActor.assumeIsolated { _ = model.handleEventsForBackgroundURLSession(identifier, completion: completionHandler) }
    }

    /// A silent push (`content-available: 1`; the app has the `remote-notification` mode): the
    /// tracker takes a fix if its strategy wants one, uploads, and calls the handler.
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        MainActor.assumeIsolated { model.didReceiveSilentPush(completion: completionHandler) }
    }

    /// `nonisolated`: the center and the response are not `Sendable`, so Swift 6 refuses them
    /// into this main-actor delegate (UIApplicationDelegate makes it one); only the identifier, a
    /// `String`, crosses to the main actor (issue 40 observation 8, checked against the iOS SDK).
    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
    ) async {
        let identifier = response.notification.request.identifier
        await model.didReceiveNotification(identifier)
    }

    /// The tracker's notices (tracking stopped, permission narrowed, uploads held) show as banners
    /// while the app is open too; without this iOS shows a notification only in the background.
    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        [.banner, .list, .sound]
    }
}
