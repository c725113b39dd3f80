// Builds in Xcode only (SwiftUI, MapKit): see ../README.md. The model it drives,
// ../Model/TrackerModel.swift, is compiled and checked on Linux by `swift build --package-path Tools`.
import SwiftUI
import UIKit
import UserNotifications

@main
struct TrackerApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var delegate
    @Environment(\.scenePhase) private var phase

    var body: some Scene {
        WindowGroup {
            ContentView(model: delegate.model)
        }
        .onChange(of: phase) { _, phase in
            switch phase {
            case .background: delegate.model.didEnterBackground()
            case .active: delegate.model.willEnterForeground()
            default: break
            }
        }
    }
}

/// What only an app delegate receives, forwarded to the tracker.
final class AppDelegate: NSObject, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    @MainActor let model = TrackerModel()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        UNUserNotificationCenter.current().delegate = self
        // The tracker registers its BGTaskScheduler identifiers here, before launch finishes.
        MainActor.assumeIsolated { model.didFinishLaunching(options) }
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) { _, _ in }
        return true
    }

    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        MainActor.assumeIsolated { _ = model.handleEventsForBackgroundURLSession(identifier, completion: completionHandler) }
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
    ) async {
        await model.didReceiveNotification(response.notification.request.identifier)
    }

    /// The tracker's notices (tracking stopped, permission narrowed, uploads held) show as banners
    /// while the app is open too; without this iOS shows a notification only in the background.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        [.banner, .list, .sound]
    }
}
