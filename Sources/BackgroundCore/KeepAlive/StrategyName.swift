/// The keep-alive presets, selectable by name (`bgtrack simulate --strategy NAME`).
public enum StrategyName: String, CaseIterable, Hashable, Sendable, Codable {
    /// Seed 004: one background task for the work on entering the background.
    case finiteTask = "finite-task"
    /// Seed 000's friend's demo: at expiry, end the task and begin another.
    case renewOnExpiry = "renew-on-expiry"
    /// Seed 000: a task plus starting and stopping location every 60 s.
    case locationRefresh = "location-refresh"
    /// Seed 002: a task, then every 10 s a one-shot fix (Always) or 0.2 s of silent audio.
    case locationOrAudio = "location-or-audio"
    /// Seed 003: every 120 s one fix and a new task, the older ended.
    case fixAndTaskChain = "fix-and-task-chain"
    /// Location updates at best accuracy all the time: the expensive baseline.
    case continuousLocation = "continuous-location"
    /// Significant-change plus visits: Apple's low-power path.
    case significantChange = "significant-change"
    /// iOS 17+ standard location updates held by a `CLBackgroundActivitySession`.
    case activitySession = "activity-session"
    /// Ours: coarse updates to stay runnable, one precise fix per slot, relaunch nets.
    case adaptive

    /// A fresh instance of the strategy.
    public func makeStrategy() -> any KeepAliveStrategy {
        switch self {
        case .finiteTask: return FiniteTaskStrategy(renewOnExpiry: false)
        case .renewOnExpiry: return FiniteTaskStrategy(renewOnExpiry: true)
        case .locationRefresh: return LocationRefreshStrategy()
        case .locationOrAudio: return LocationOrAudioStrategy()
        case .fixAndTaskChain: return FixAndTaskChainStrategy()
        case .continuousLocation: return ContinuousLocationStrategy()
        case .significantChange: return SignificantChangeStrategy()
        case .activitySession: return ActivitySessionStrategy()
        case .adaptive: return AdaptiveStrategy()
        }
    }

    /// One line on what the preset does, for `--help` and reports.
    public var summary: String {
        switch self {
        case .finiteTask: return "one background task for work on entering background (seed 004)"
        case .renewOnExpiry: return "end and begin a new task at expiry (seed 000 demo)"
        case .locationRefresh: return "task + start/stop location every 60 s (seed 000)"
        case .locationOrAudio: return "task + every 10 s a fix (Always) or 0.2 s silent audio (seed 002)"
        case .fixAndTaskChain: return "every 120 s one fix and a new master task (seed 003)"
        case .continuousLocation: return "best-accuracy updates all the time (baseline)"
        case .significantChange: return "significant-change + visits (low power)"
        case .activitySession: return "standard location updates held by a background activity session (iOS 17+)"
        case .adaptive: return "coarse updates + one GPS fix per slot + relaunch nets (ours)"
        }
    }
}
