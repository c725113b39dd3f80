/// An uncaught exception iOS raises in the app for breaking its runtime contract (docs/ios-policy.md §Contract):
/// the process dies at once, with this text in the crash report.
package struct RuntimeCrash: Codable, Hashable, Sendable, CustomStringConvertible {
    /// `NSInternalInconsistencyException`.
    package var exception: String
    package var reason: String

    package init(exception: String = "NSInternalInconsistencyException", reason: String) {
        self.exception = exception
        self.reason = reason
    }

    package var description: String { "\(exception): \(reason)" }

    /// `allowsBackgroundLocationUpdates = true` without `location` in `UIBackgroundModes`: "a fatal
    /// error that terminates the app" ([AD-CLM]), observed with this assertion text.
    package static let backgroundLocationWithoutMode = RuntimeCrash(
        reason: "Invalid parameter not satisfying: !stayUp || CLClientIsBackgroundable")

    /// Starting motion activity updates without `NSMotionUsageDescription` in the Info.plist: "your
    /// app crashes" ([AD-CMMAM]); the system's privacy check aborts the app with this text.
    package static let motionWithoutUsageDescription = RuntimeCrash(
        exception: "__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__",
        reason: "This app has crashed because it attempted to access privacy-sensitive data without a usage "
            + "description. The app's Info.plist must contain an NSMotionUsageDescription key with a string value "
            + "explaining to the user how the app uses this data.")

    /// `BGTaskScheduler.register` after `application(_:didFinishLaunchingWithOptions:)` returned
    /// (text as developers report it; the rule is [BGH]'s and DTS's, docs/ios-policy.md §Modes, §Contract).
    package static func registeredAfterLaunch(_ identifier: String) -> RuntimeCrash {
        RuntimeCrash(
            reason: "All launch handlers must be registered before application finishes launching (\(identifier))")
    }

    /// The same identifier registered twice in one process ([BGH]: "registering an ID twice kills the app").
    package static func registeredTwice(_ identifier: String) -> RuntimeCrash {
        RuntimeCrash(reason: "Launch handler for task with identifier \(identifier) has already been registered")
    }
}

/// `BGTaskScheduler.Error.Code`, as `submit(_:)` throws it ([BGH]).
package enum TaskSubmitError: Int, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Background App Refresh is off (or the app runs in Apple's Simulator).
    case unavailable = 1
    /// More than 1 refresh or 10 processing requests pending.
    case tooManyPendingTaskRequests = 2
    /// The identifier is not permitted, not registered, or its mode is missing.
    case notPermitted = 3

    package var description: String {
        switch self {
        case .unavailable: return "BGTaskScheduler.Error.unavailable"
        case .tooManyPendingTaskRequests: return "BGTaskScheduler.Error.tooManyPendingTaskRequests"
        case .notPermitted: return "BGTaskScheduler.Error.notPermitted"
        }
    }
}

/// What hosted app code did that the runtime contract judges, besides its effects: reported by
/// the shadow's backend (`IOSShellHost`) with each event's result.
package enum RuntimeCall: Hashable, Sendable {
    /// The app broke a rule iOS enforces by raising an exception: the process dies now.
    case crash(RuntimeCrash)
    /// A counted violation (Main Thread Checker, a session created where it has no effect).
    case violation(String)
    /// A counted warning (Xcode's runtime issues).
    case warning(String)
    case requestWhenInUseAuthorization
    case requestAlwaysAuthorization
    /// `BGTask.setTaskCompleted(success:)`: the task's grant of background time ends.
    case backgroundTaskCompleted(identifier: String, success: Bool)
    /// A silent push's fetch completion handler was called with `result` (`newData`, `noData`,
    /// `failed`): the push's runtime ends.
    case remoteNotificationCompleted(result: String)
    /// `submit(_:)` threw.
    case submitRefused(identifier: String, TaskSubmitError)
    /// `CLServiceSession(authorization:)` (iOS 18) created or invalidated.
    case serviceSessionCreated
    case serviceSessionInvalidated
    /// `UNUserNotificationCenter.requestAuthorization(options:)`, with `.provisional` or without.
    case requestNotificationAuthorization(provisional: Bool)
}
