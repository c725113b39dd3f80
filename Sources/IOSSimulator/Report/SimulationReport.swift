import BackgroundCore

/// The outcome of one simulated run; its JSON keys are the `--format json` contract.
public struct SimulationReport: Codable, Hashable, Sendable {
    public var strategy: String
    public var ios: Int
    public var auth: String
    public var scenario: String
    public var seed: UInt64
    public var hours: Double
    /// Sampling slots in the run (hours × 3600 / interval).
    public var samplesExpected: Int
    /// Slots that got an accepted sample.
    public var samplesCaptured: Int
    /// `samplesCaptured / samplesExpected`, 0…1.
    public var coverage: Double
    /// The longest time without a sample, including from the start and to the end, in seconds.
    public var maxGapS: Double
    /// Seconds the app was running (not suspended, not terminated) while in the background.
    public var backgroundAliveS: Double
    /// Median seconds the app kept running after the user left it.
    public var aliveAfterBackgroundS: Double
    /// Energy spent for the app, in milliwatt-hours, and by component.
    public var energyMwh: Double
    public var energyByComponentMwh: [String: Double]
    /// Process terminations by reason (watchdog, memory, force-quit, reboot, assertion-limit).
    public var kills: [String: Int]
    public var invariantViolations: Int
    /// The first few violations, described.
    public var violationExamples: [String]
    /// Local notifications the app posted.
    public var notifications: Int
    public var notificationsByKind: [String: Int]
    public var silentPushesDelivered: Int
    public var silentPushesDropped: Int
    public var relaunches: Int
    public var fixesRejected: Int
    /// Batches the server acknowledged.
    public var uploads: Int
    /// Samples the server holds at the end, and samples still waiting on the phone.
    public var samplesOnServer: Int
    public var samplesPending: Int
    /// Discrete events the simulator processed (a measure of its work).
    public var events: Int
    public var reviewRisks: [String]
    /// Every delivery of the dead-man notice ("Tracking stopped at …"), in order.
    public var deadManNotices: [DeadManNotice] = []
    /// Distance from the true route to the recorded track, once a minute: mean and worst metres
    /// (-1 without samples), and the share of minutes within 100 m.
    public var pathErrorMeanM: Double = -1
    public var pathErrorMaxM: Double = -1
    public var pathWithin100m: Double = 0
    /// The energy floor of this day: one fix per slot at the modelled time-to-fix plus one
    /// upload burst per upload interval. `energyMwh / energyFloorMwh` is how far above it a strategy is.
    public var energyFloorMwh: Double = 0
    /// Samples taken while Precise Location was off: kilometres off on purpose, kept and counted.
    public var samplesApproximate: Int = 0
    /// BGProcessing tasks the system ran for the app.
    public var processingRuns: Int = 0
    /// Batches the system's background URLSession sent for the app (`--upload-session background`).
    public var backgroundTransfers: Int = 0
    /// Resume regions iOS refused because the app had used its 20 (`--app-regions`).
    public var regionFailures: Int = 0
    /// The app code the process ran: "direct" (the keep-alive machine) or a hosted shell ("ios").
    public var shell: String = "direct"
    /// Crashes for breaking iOS's runtime contract (docs/ios-policy.md §Contract), each with its exception; also
    /// counted under `kills["crash"]`.
    public var crashes: [CrashRecord] = []
    /// Runtime issues Xcode would flag (e.g. `locationServicesEnabled()` on the main thread).
    public var warnings: Int = 0
    public var warningExamples: [String] = []
    /// The location authorisation the app reached by the end (`auth` is the user's answers).
    public var authorization: String = ""
    /// Every change of the authorisation, `HH:MM:SS status (why)`, from "not determined" at install.
    public var authorizationChanges: [String] = []
    /// `BGTaskScheduler.submit` calls iOS refused (not permitted, unavailable, too many pending).
    public var submitRefusals: Int = 0
    /// The Info.plist the app had: `minimal for STRATEGY` or the `--plist` path.
    public var plist: String = ""
    /// Share of the sampling slots covered only by approximate (~5 km, Precise Location off)
    /// samples; `coverage` counts precise samples only.
    public var coverageApproximate: Double = 0
    /// Share of `energyMwh` spent by components whose power or duration in the policy table is
    /// marked `assumption` (no measured or documented source): how much of the headline is a guess.
    public var energyAssumedShare: Double = 0
    public var timeline: [String]?

    enum CodingKeys: String, CodingKey {
        case strategy, ios, auth, scenario, seed, hours
        case samplesExpected = "samples_expected"
        case samplesCaptured = "samples_captured"
        case coverage
        case maxGapS = "max_gap_s"
        case backgroundAliveS = "background_alive_s"
        case aliveAfterBackgroundS = "alive_after_background_s"
        case energyMwh = "energy_mwh"
        case energyByComponentMwh = "energy_by_component_mwh"
        case kills
        case invariantViolations = "invariant_violations"
        case violationExamples = "violation_examples"
        case notifications
        case notificationsByKind = "notifications_by_kind"
        case silentPushesDelivered = "silent_pushes_delivered"
        case silentPushesDropped = "silent_pushes_dropped"
        case relaunches
        case fixesRejected = "fixes_rejected"
        case uploads, events
        case samplesOnServer = "samples_on_server"
        case samplesPending = "samples_pending"
        case reviewRisks = "review_risks"
        case deadManNotices = "dead_man_notices"
        case pathErrorMeanM = "path_error_mean_m"
        case pathErrorMaxM = "path_error_max_m"
        case pathWithin100m = "path_within_100m"
        case energyFloorMwh = "energy_floor_mwh"
        case samplesApproximate = "samples_approximate"
        case processingRuns = "processing_runs"
        case backgroundTransfers = "background_transfers"
        case regionFailures = "region_failures"
        case shell, crashes, warnings
        case warningExamples = "warning_examples"
        case authorization
        case authorizationChanges = "authorization_changes"
        case submitRefusals = "submit_refusals"
        case plist, timeline
        case coverageApproximate = "coverage_approximate"
        case energyAssumedShare = "energy_assumed_share"
    }
}

/// One delivery of the dead-man notice: when, the last sample it names, and what the app was doing.
public struct DeadManNotice: Codable, Hashable, Sendable {
    /// The notification kind in `notifications_by_kind`.
    public static let kind = "tracking-stopped"
    /// `HH:MM:SS` since the scenario's start.
    public var firedAt: String
    public var lastSample: String
    /// `terminated`, `suspended`, `background` or `foreground`.
    public var appState: String

    enum CodingKeys: String, CodingKey {
        case firedAt = "fired_at"
        case lastSample = "last_sample"
        case appState = "app_state"
    }
}

/// One crash: when, and the uncaught exception iOS raised.
public struct CrashRecord: Codable, Hashable, Sendable {
    /// `HH:MM:SS` since the scenario's start.
    public var at: String
    public var exception: String
    public var reason: String
}
