/// Why the process started.
public enum LaunchReason: String, Hashable, Sendable, CaseIterable, Codable {
    /// The user opened the app.
    case user
    case significantChange, visit, regionExit, backgroundRefresh, backgroundProcessing, silentPush
    /// The background `URLSession`'s transfers ended (`handleEventsForBackgroundURLSession`).
    case backgroundURLSession
}

/// Everything the shell tells a keep-alive machine. Delegate callbacks of UIKit, CoreLocation,
/// AVFoundation and BackgroundTasks all become one of these.
public enum KeepAliveEvent: Hashable, Sendable {
    /// The process started, in the foreground (`.user`) or in the background for `reason`.
    case launched(LaunchReason)
    case enteredBackground
    case enteredForeground
    /// A suspended app was woken for `reason` (its process kept its memory).
    case woke(LaunchReason)
    case timerFired(TimerID)
    /// The system is calling the expiration handler of `token`.
    case taskExpiring(BackgroundTaskToken)
    /// `beginBackgroundTask` returned `.invalid` for `token`.
    case taskRefused(BackgroundTaskToken)
    case locationFix(LocationFix, source: FixSource)
    case environmentChanged(KeepAliveEnvironment)
    /// An audio interruption began (`true`) or ended (`false`).
    case audioInterruption(began: Bool)
    /// The motion coprocessor reported a new activity (`CMMotionActivityManager`'s handler).
    case motionActivity(MotionActivity)
    /// Stop all keep-alive work (the user logged out or the session was rejected).
    case stop
}
