package import BackgroundCore

/// A callback the simulated iOS makes into the app's code: what `HostedApp.handle` receives,
/// which the hosted app turns into the delegate call, notification or handler iOS would run.
package enum AppCallback: Hashable, Sendable {
    /// The process launched (`application(_:didFinishLaunchingWithOptions:)`) for `reason`.
    case launched(LaunchReason)
    /// `applicationDidEnterBackground(_:)`.
    case enteredBackground
    /// `applicationWillEnterForeground(_:)`.
    case enteredForeground
    /// A background launch's reason reaching a process that already runs (a BGTask's launch
    /// handler, the background session's events).
    case woke(LaunchReason)
    /// One of the app's own timers fired.
    case timerFired(TimerID)
    /// A `beginBackgroundTask` task's time is nearly up: its expiration handler runs.
    case taskExpiring(BackgroundTaskToken)
    /// `beginBackgroundTask` returned `.invalid` for `id` (the app saw it when it asked).
    case taskRefused(BackgroundTaskToken)
    /// A fix for the service that produced it, delivered to the manager that runs that service.
    case locationFix(LocationFix, source: FixSource)
    /// Settings changed (authorisation, Precise Location, Location Services, Low Power Mode,
    /// battery, charger, Background App Refresh): the authorisation callback and the
    /// notifications' observers.
    case settingsChanged(SystemSettings)
    /// `AVAudioSession.interruptionNotification`, began or ended.
    case audioInterruption(began: Bool)
    /// The motion coprocessor's new activity reaches the app's activity handler.
    case motionActivity(MotionActivity)
}
