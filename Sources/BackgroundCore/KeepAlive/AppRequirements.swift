/// What an app's `Info.plist` must declare for a strategy to work as simulated: the
/// `UIBackgroundModes` it relies on, whether it needs Always permission (location relaunches,
/// docs/ios-policy.md §Lifecycle: "Location relaunch needs Always") and the `BGTaskScheduler`
/// identifiers it registers.
/// `bgtrack lint-plist` checks a plist against it.
public struct AppRequirements: Hashable, Sendable {
    /// `UIBackgroundModes` entries: `location`, `audio`, `fetch`, `processing`, `remote-notification`.
    public var backgroundModes: [String]
    /// Whether the strategy asks for Always (`NSLocationAlwaysAndWhenInUseUsageDescription`).
    public var needsAlways: Bool
    /// Identifiers it submits to `BGTaskScheduler` (`BGTaskSchedulerPermittedIdentifiers`).
    public var taskIdentifiers: [String]
    /// Why each background mode is needed, for the linter's messages.
    public var reasons: [String: String]
    /// Whether the strategy uses the motion coprocessor (`NSMotionUsageDescription`): without the
    /// key the shell never starts motion updates (iOS would crash the app) and the strategy
    /// works as without a coprocessor.
    public var usesMotion = false
}

/// The `BGTaskScheduler` identifiers the library registers. An app lists them under
/// `BGTaskSchedulerPermittedIdentifiers`; iOS refuses to submit a request for an unlisted one.
public enum BackgroundTaskIdentifiers {
    /// The app-refresh task: a wake every 15 min or more, a relaunch net for `adaptive`.
    public static let refresh = "com.backgroundtracker.refresh"
    /// The processing task: minutes on the charger overnight, to upload the day's backlog.
    public static let processing = "com.backgroundtracker.processing"
}

extension StrategyName {
    /// What the app's `Info.plist` must hold for this strategy.
    public var requirements: AppRequirements {
        let location = "it keeps receiving location updates in the background"
        switch self {
        case .finiteTask, .renewOnExpiry:
            return AppRequirements(backgroundModes: [], needsAlways: false, taskIdentifiers: [], reasons: [:])
        case .locationRefresh, .fixAndTaskChain, .continuousLocation, .activitySession:
            return AppRequirements(
                backgroundModes: ["location"], needsAlways: false, taskIdentifiers: [], reasons: ["location": location])
        case .locationOrAudio:
            return AppRequirements(
                backgroundModes: ["location", "audio"], needsAlways: true, taskIdentifiers: [],
                reasons: [
                    "location": location, "audio": "it plays silent audio to stay running (App Review 2.5.4 risk)",
                ])
        case .significantChange:
            return AppRequirements(backgroundModes: [], needsAlways: true, taskIdentifiers: [], reasons: [:])
        case .adaptive:
            return AppRequirements(
                backgroundModes: ["location", "fetch", "processing", "remote-notification"], needsAlways: true,
                taskIdentifiers: [BackgroundTaskIdentifiers.refresh, BackgroundTaskIdentifiers.processing],
                reasons: [
                    "location": location,
                    "fetch": "it schedules a BGAppRefreshTask as a relaunch net",
                    "processing": "it schedules a BGProcessingTask to upload the backlog on the charger overnight",
                    "remote-notification": "silent pushes wake it as a relaunch net",
                ], usesMotion: true)
        }
    }
}
