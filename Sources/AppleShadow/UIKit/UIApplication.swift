#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/uikit/uiresponder
    @MainActor
    open class UIResponder: NSObject {}

    /// Apple: https://developer.apple.com/documentation/uikit/uiapplication
    @MainActor
    open class UIApplication: UIResponder {
        private static let instance = UIApplication()

        override internal init() {}

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/shared
        open class var shared: UIApplication { instance }

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)
        open func beginBackgroundTask(
            withName taskName: String?, expirationHandler handler: (() -> Void)? = nil
        ) -> UIBackgroundTaskIdentifier {
            // UIKit calls the handler on the main thread, where this method takes it: the handler
            // never leaves the main actor, so the unchecked capture below is safe.
            nonisolated(unsafe) let handler = handler
            return UIBackgroundTaskIdentifier(
                rawValue: UIKitShadow.backend.beginBackgroundTask(
                    name: taskName, expirationHandler: handler.map { _ in { @MainActor in handler?() } }))
        }

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:)
        open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
            UIKitShadow.backend.endBackgroundTask(identifier.rawValue)
        }

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/backgroundtimeremaining
        open var backgroundTimeRemaining: TimeInterval { UIKitShadow.backend.backgroundTimeRemaining }

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/applicationstate
        open var applicationState: UIApplication.State { UIKitShadow.backend.applicationState }

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatus
        open var backgroundRefreshStatus: UIBackgroundRefreshStatus { UIKitShadow.backend.backgroundRefreshStatus }

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatusdidchangenotification
        nonisolated public static let backgroundRefreshStatusDidChangeNotification = NSNotification.Name(
            "UIApplicationBackgroundRefreshStatusDidChangeNotification")

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/isprotecteddataavailable
        open var isProtectedDataAvailable: Bool { UIKitShadow.backend.isProtectedDataAvailable }

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/protecteddatadidbecomeavailablenotification
        nonisolated public static let protectedDataDidBecomeAvailableNotification = NSNotification.Name(
            "UIApplicationProtectedDataDidBecomeAvailable")

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/state
        public enum State: Int, Sendable {
            /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/state/active
            case active = 0
            /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/state/inactive
            case inactive = 1
            /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/state/background
            case background = 2
        }

        /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/launchoptionskey
        public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
            /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/launchoptionskey/init(rawvalue:)
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/launchoptionskey/rawvalue
            public var rawValue: String
            /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/launchoptionskey/location
            public static let location = UIApplication.LaunchOptionsKey(
                rawValue: "UIApplicationLaunchOptionsLocationKey")
        }
    }

    /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundrefreshstatus
    public enum UIBackgroundRefreshStatus: Int, Sendable {
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundrefreshstatus/restricted
        case restricted = 0
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundrefreshstatus/denied
        case denied = 1
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundrefreshstatus/available
        case available = 2
    }

    /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundfetchresult
    public enum UIBackgroundFetchResult: UInt, Sendable {
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundfetchresult/newdata
        case newData = 0
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundfetchresult/nodata
        case noData = 1
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundfetchresult/failed
        case failed = 2
    }

    /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier
    public struct UIBackgroundTaskIdentifier: Hashable, RawRepresentable, Sendable {
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier/init(rawvalue:)
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier/rawvalue
        public var rawValue: Int
        /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier/invalid
        public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
    }
#endif
