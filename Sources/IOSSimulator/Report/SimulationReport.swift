import BackgroundCore

/// The outcome of one simulated run; its JSON keys are the `--format json` contract.
package struct SimulationReport: Codable, Hashable, Sendable {
    package var strategy: String
    package var ios: Int
    package var auth: String
    package var scenario: String
    package var seed: UInt64
    package var hours: Double
    /// Sampling slots in the run (hours × 3600 / interval).
    package var samplesExpected: Int
    /// Slots that got an accepted sample.
    package var samplesCaptured: Int
    /// Samples the phone accepted in the run: one per captured slot, plus the departure fixes
    /// `adaptive` takes beyond a slot's own when the user sets off (trigger `motion`).
    package var samplesRecorded: Int = 0
    /// `samplesCaptured / samplesExpected`, 0…1.
    package var coverage: Double
    /// The longest time without a sample, including from the start and to the end, in seconds.
    package var maxGapS: Double
    /// Seconds the app was running (not suspended, not terminated) while in the background.
    package var backgroundAliveS: Double
    /// Median seconds the app kept running after the user left it.
    package var aliveAfterBackgroundS: Double
    /// Energy spent for the app, in milliwatt-hours, and by component.
    package var energyMwh: Double
    package var energyByComponentMwh: [String: Double]
    /// Process terminations by reason (watchdog, memory, force-quit, reboot, assertion-limit).
    package var kills: [String: Int]
    package var invariantViolations: Int
    /// The first few violations, described.
    package var violationExamples: [String]
    /// Local notifications the app posted.
    package var notifications: Int
    package var notificationsByKind: [String: Int]
    package var silentPushesDelivered: Int
    package var silentPushesDropped: Int
    package var relaunches: Int
    package var fixesRejected: Int
    /// Batches the server acknowledged.
    package var uploads: Int
    /// Samples the server holds at the end, and samples still waiting on the phone.
    package var samplesOnServer: Int
    package var samplesPending: Int
    /// Discrete events the simulator processed (a measure of its work).
    package var events: Int
    package var reviewRisks: [String]
    /// Every delivery of the dead-man notice ("Tracking stopped at …"), in order.
    package var deadManNotices: [DeadManNotice] = []
    /// Distance from the true route to the recorded track, once a minute: mean and worst metres
    /// (-1 without samples), and the share of minutes within 100 m.
    package var pathErrorMeanM: Double = -1
    package var pathErrorMaxM: Double = -1
    package var pathWithin100m: Double = 0
    /// The energy floor of this day: one fix per slot at the modelled time-to-fix plus one
    /// upload burst per upload interval. `energyMwh / energyFloorMwh` is how far above it a strategy is.
    package var energyFloorMwh: Double = 0
    /// Samples taken while Precise Location was off: kilometres off on purpose, kept and counted.
    package var samplesApproximate: Int = 0
    /// BGProcessing tasks the system ran for the app.
    package var processingRuns: Int = 0
    /// Batches the system's background URLSession sent for the app.
    package var backgroundTransfers: Int = 0
    /// Resume regions iOS refused because the app had used its 20 (`--app-regions`).
    package var regionFailures: Int = 0
    /// Motion activities (`CMMotionActivity`) the app's handler received; 0 without motion access.
    package var motionActivities: Int = 0
    /// The app code the process ran: the iOS shell ("ios") or a test's scripted app.
    package var shell: String = "ios"
    /// Crashes for breaking iOS's runtime contract (docs/ios-policy.md §Contract), each with its exception; also
    /// counted under `kills["crash"]`.
    package var crashes: [CrashRecord] = []
    /// Runtime issues Xcode would flag (e.g. `locationServicesEnabled()` on the main thread).
    package var warnings: Int = 0
    package var warningExamples: [String] = []
    /// The location authorisation the app reached by the end (`auth` is the user's answers).
    package var authorization: String = ""
    /// Every change of the authorisation, `HH:MM:SS status (why)`, from "not determined" at install.
    package var authorizationChanges: [String] = []
    /// `BGTaskScheduler.submit` calls iOS refused (not permitted, unavailable, too many pending).
    package var submitRefusals: Int = 0
    /// The Info.plist the app had: `minimal for STRATEGY` or the `--plist` path.
    package var plist: String = ""
    /// Share of the sampling slots covered only by approximate (~5 km, Precise Location off)
    /// samples; `coverage` counts precise samples only.
    package var coverageApproximate: Double = 0
    /// Share of `energyMwh` spent by components whose power or duration in the policy table is
    /// marked `assumption` (no measured or documented source): how much of the headline is a guess.
    package var energyAssumedShare: Double = 0
    package var timeline: [String]?
    /// Whether the app could notify at the end (`not-determined`, `denied`, `authorized`,
    /// `provisional`: delivered quietly).
    package var notificationAuthorization: String = ""
    /// Notices the app added that iOS did not show (notifications not allowed), by kind.
    package var notificationsNotShown: [String: Int] = [:]
    /// What the app's own status said at the end (a hosted shell's `TrackerStatus`), one line each.
    package var appStatus: [String] = []

    enum CodingKeys: String, CodingKey {
        case strategy, ios, auth, scenario, seed, hours
        case samplesExpected = "samples_expected"
        case samplesCaptured = "samples_captured"
        case samplesRecorded = "samples_recorded"
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
        case motionActivities = "motion_activities"
        case shell, crashes, warnings
        case warningExamples = "warning_examples"
        case authorization
        case authorizationChanges = "authorization_changes"
        case submitRefusals = "submit_refusals"
        case plist, timeline
        case coverageApproximate = "coverage_approximate"
        case energyAssumedShare = "energy_assumed_share"
        case notificationAuthorization = "notification_authorization"
        case notificationsNotShown = "notifications_not_shown"
        case appStatus = "app_status"
    }
}

/// One delivery of the dead-man notice: when, the last sample it names, and what the app was doing.
package struct DeadManNotice: Codable, Hashable, Sendable {
    /// The notification kind in `notifications_by_kind`.
    package static let kind = "tracking-stopped"
    /// `HH:MM:SS` since the scenario's start.
    package var firedAt: String
    package var lastSample: String
    /// `terminated`, `suspended`, `background` or `foreground`.
    package var appState: String

    enum CodingKeys: String, CodingKey {
        case firedAt = "fired_at"
        case lastSample = "last_sample"
        case appState = "app_state"
    }
}

/// One crash: when, and the uncaught exception iOS raised.
package struct CrashRecord: Codable, Hashable, Sendable {
    /// `HH:MM:SS` since the scenario's start.
    package var at: String
    package var exception: String
    package var reason: String
}
