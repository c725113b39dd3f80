public import BackgroundCore

/// Why iOS stopped giving the app locations or ended its process, as iOS itself says it: one of
/// iOS 18's location session diagnostics (`CLServiceSession.Diagnostic`,
/// `CLBackgroundActivitySession.Diagnostic`), which arrive at once, or one of MetricKit's
/// background exit counters (`MXBackgroundExitData`), which arrive with the daily report, after
/// the fact (docs/ios-policy.md §Causes).
///
/// Each cause has the gap reason it explains and the words the app, the timeline and the
/// server's alerts show: the gap's detail.
public enum StopCause: String, Sendable, Hashable, CaseIterable {
    // iOS 18 session diagnostics: why location stopped (the process lives on).
    /// The user set the app's location permission to Never.
    case authorizationDenied
    /// Location Services are off for the whole phone.
    case authorizationDeniedGlobally
    /// Location is restricted (Screen Time, a device management profile).
    case authorizationRestricted
    /// The session needs Always and the user did not give it.
    case alwaysAuthorizationDenied
    /// Precise Location is off: only approximate locations.
    case fullAccuracyDenied
    /// A When-In-Use app that is not in use (not on screen, no activity session) gets no location.
    case insufficientlyInUse
    /// iOS 18 gives location in the background only to an app holding a service session.
    case serviceSessionRequired

    // MetricKit background exit counters: why the process was ended in the background.
    case memoryResourceLimit
    case cpuResourceLimit
    case memoryPressure
    case appWatchdog
    case suspendedWithLockedFile
    case badAccess
    case illegalInstruction
    case abnormal
    case normalAppExit
    case backgroundTaskAssertionTimeout

    /// The causes a session diagnostic gives, in the order the diagnostic's properties are read.
    public static let diagnostics: [StopCause] = [
        .authorizationDeniedGlobally, .authorizationRestricted, .authorizationDenied, .alwaysAuthorizationDenied,
        .fullAccuracyDenied, .serviceSessionRequired, .insufficientlyInUse,
    ]

    /// The causes MetricKit's background exit data counts, in the order the app shows them.
    public static let exits: [StopCause] = [
        .memoryPressure, .memoryResourceLimit, .cpuResourceLimit, .backgroundTaskAssertionTimeout, .appWatchdog,
        .suspendedWithLockedFile, .badAccess, .illegalInstruction, .abnormal, .normalAppExit,
    ]

    /// Where iOS says it: the diagnostic property or the exit-data counter.
    public var source: String {
        switch self {
        case .authorizationDenied, .authorizationDeniedGlobally, .authorizationRestricted, .alwaysAuthorizationDenied,
            .fullAccuracyDenied, .insufficientlyInUse, .serviceSessionRequired:
            "CLServiceSession.Diagnostic.\(rawValue)"
        default:
            "MXBackgroundExitData.cumulative\(counterStem)ExitCount"
        }
    }

    /// The exit-data counter's name between `cumulative` and `ExitCount`.
    private var counterStem: String {
        switch self {
        case .memoryResourceLimit: "MemoryResourceLimit"
        case .cpuResourceLimit: "CPUResourceLimit"
        case .memoryPressure: "MemoryPressure"
        case .appWatchdog: "AppWatchdog"
        case .suspendedWithLockedFile: "SuspendedWithLockedFile"
        case .badAccess: "BadAccess"
        case .illegalInstruction: "IllegalInstruction"
        case .abnormal: "Abnormal"
        case .normalAppExit: "NormalApp"
        case .backgroundTaskAssertionTimeout: "BackgroundTaskAssertionTimeout"
        default: ""
        }
    }

    /// What the gap's detail says of this cause (after what the phone knew before it).
    public var detailWords: String {
        StopCause.exits.contains(self) ? "cause: \(words) (MetricKit)" : words
    }

    /// What the app shows the user (`TrackerStatus.lastStopCause`).
    public var statusWords: String {
        StopCause.exits.contains(self) ? "The app was ended by iOS: \(detailWords)" : "Location stopped: \(words)"
    }

    /// The gap this cause explains.
    public var gapReason: GapReason {
        switch self {
        case .authorizationDenied, .authorizationRestricted, .alwaysAuthorizationDenied: .authorizationLowered
        case .authorizationDeniedGlobally: .locationServicesOff
        case .fullAccuracyDenied: .preciseOff
        case .insufficientlyInUse, .serviceSessionRequired: .locationWithheld
        default: .terminatedBySystem
        }
    }

    /// What the user reads, in the app and (after the gap reason's phrase) in the timeline and alerts.
    public var words: String {
        switch self {
        case .authorizationDenied: "location permission set to Never"
        case .authorizationDeniedGlobally: "Location Services turned off for the phone"
        case .authorizationRestricted: "location restricted on this phone (Screen Time or a profile)"
        case .alwaysAuthorizationDenied: "Always permission not given"
        case .fullAccuracyDenied: "Precise Location turned off"
        case .insufficientlyInUse: "When In Use only, and the app was not in use"
        case .serviceSessionRequired: "iOS 18 needs a location session the app did not hold"
        case .memoryResourceLimit: "the app used too much memory"
        case .cpuResourceLimit: "the app used too much CPU"
        case .memoryPressure: "iOS needed the memory for other apps"
        case .appWatchdog: "the app took too long to answer iOS (watchdog)"
        case .suspendedWithLockedFile: "the app was suspended holding a locked file"
        case .badAccess: "the app crashed (bad memory access)"
        case .illegalInstruction: "the app crashed (illegal instruction)"
        case .abnormal: "the app crashed"
        case .normalAppExit: "the app exited normally (or was ended gracefully)"
        case .backgroundTaskAssertionTimeout: "a background task ran past its time"
        }
    }
}

/// One MetricKit report's background exit counts (`MXMetricPayload.applicationExitMetrics
/// .backgroundExitData`) and the period it covers (`timeStampBegin` … `timeStampEnd`).
public struct BackgroundExitCounts: Hashable, Sendable {
    public var begin: Instant
    public var end: Instant
    /// Exits by cause; only ``StopCause/exits`` are counted, zero counts are left out.
    public var counts: [StopCause: Int]

    public init(begin: Instant, end: Instant, counts: [StopCause: Int]) {
        self.begin = begin
        self.end = end
        self.counts = counts.filter { StopCause.exits.contains($0.key) && $0.value > 0 }
    }

    /// The causes counted, most first (ties in ``StopCause/exits`` order).
    public var causes: [StopCause] {
        StopCause.exits.filter { counts[$0] != nil }.sorted { (counts[$0] ?? 0) > (counts[$1] ?? 0) }
    }

    /// What a kill in this period is put down to: the cause when the report counts only one, else
    /// "one of" them all with their counts (never a guess of one); `nil` when it counts none.
    public var words: String? {
        let causes = causes
        guard let first = causes.first else { return nil }
        if causes.count == 1 { return first.detailWords }
        let list = causes.map { "\($0.words) ×\(counts[$0] ?? 0)" }.joined(separator: ", ")
        return "cause one of: \(list) (MetricKit)"
    }

    /// What the app shows the user (`TrackerStatus.lastStopCause`), `nil` when it counts none.
    public var statusWords: String? { words.map { "The app was ended by iOS: \($0)" } }
}
