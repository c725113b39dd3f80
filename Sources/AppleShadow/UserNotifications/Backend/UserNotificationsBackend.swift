#if !canImport(UIKit)
    /// Shadow only, not Apple API: the system behind `UNUserNotificationCenter`.
    public protocol UserNotificationsBackend: AnyObject {
        func add(_ request: UNNotificationRequest) -> (any Error)?
        func removePendingNotificationRequests(withIdentifiers identifiers: [String])
        /// `requestAuthorization(options:completionHandler:)`: whether the app may notify now,
        /// and the error iOS gives, if any.
        func requestAuthorization(options: UNAuthorizationOptions) -> (granted: Bool, error: (any Error)?)
        /// `UNNotificationSettings.authorizationStatus`.
        var authorizationStatus: UNAuthorizationStatus { get }
    }

    extension UserNotificationsBackend {
        /// `requestAuthorization(options:completionHandler:)`: asks, then calls `completionHandler`.
        func answerAuthorizationRequest(
            options: UNAuthorizationOptions, _ completionHandler: @Sendable (Bool, (any Error)?) -> Void
        ) {
            let answer = requestAuthorization(options: options)
            completionHandler(answer.granted, answer.error)
        }
    }

    /// Shadow only: where UserNotifications finds its backend.
    public enum UserNotificationsShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it).
        nonisolated(unsafe) public static var backend: any UserNotificationsBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: UserNotificationsBackend {
            func add(_ request: UNNotificationRequest) -> (any Error)? { uninstalled() }
            func removePendingNotificationRequests(withIdentifiers identifiers: [String]) { uninstalled() }
            func requestAuthorization(options: UNAuthorizationOptions) -> (granted: Bool, error: (any Error)?) {
                uninstalled()
            }
            var authorizationStatus: UNAuthorizationStatus { uninstalled() }
        }
    }

    func uninstalled(_ what: String = #function) -> Never {
        preconditionFailure(
            "AppleShadow: UserNotifications' \(what) used before a backend was installed; "
                + "set ShadowSystem.backend first")
    }
#endif
