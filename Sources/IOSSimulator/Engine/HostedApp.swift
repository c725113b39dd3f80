package import BackgroundCore
package import Foundation
package import LocationLog

/// What the simulated iOS answers at once when hosted app code asks: handed to the app with every
/// event, so the shadow of UIKit and Core Location can reply synchronously as the real ones do.
package struct HostedSystemState: Sendable {
    package var now: Instant
    /// `UIApplication.applicationState` is `.active` (else `.background`).
    package var isForeground: Bool
    /// `UIApplication.backgroundTimeRemaining`; `nil` in the foreground or while a background
    /// mode keeps the app running (UIKit then reports `.greatestFiniteMagnitude`).
    package var backgroundTimeRemaining: Duration?
    /// `beginBackgroundTask` returns `.invalid` now: the stint's time is all but spent.
    package var refusesNewTasks: Bool
    /// Authorisation, Precise Location, Location Services, Low Power Mode, battery and charger.
    package var environment: SystemSettings
    /// Regions the host app monitors for itself (they count against iOS's 20 per app).
    package var hostAppRegions: Int
    /// The uploads the system's background session holds for the app (sending, or with a result
    /// not yet delivered): what `getAllTasks` lists at a relaunch.
    package var uploadsInFlight: Set<String>
    /// Whether the app may notify (`UNNotificationSettings.authorizationStatus`).
    package var notifications: NotificationAuthorization
    /// `UIApplication.isProtectedDataAvailable`: `false` after a reboot until the first unlock.
    package var protectedDataAvailable = true

    package init(
        now: Instant, isForeground: Bool, backgroundTimeRemaining: Duration?, refusesNewTasks: Bool,
        environment: SystemSettings, hostAppRegions: Int, uploadsInFlight: Set<String> = [],
        notifications: NotificationAuthorization = .notDetermined
    ) {
        self.uploadsInFlight = uploadsInFlight
        self.notifications = notifications
        self.now = now
        self.isForeground = isForeground
        self.backgroundTimeRemaining = backgroundTimeRemaining
        self.refusesNewTasks = refusesNewTasks
        self.environment = environment
        self.hostAppRegions = hostAppRegions
    }
}

/// The app code a simulated process runs: `bgtrack simulate` hosts the iOS shell (a test may
/// host a scripted app), which receives each event as the callback iOS would make
/// (launch, delegate call, expiration handler, timer: an `AppCallback`) and whose calls to UIKit,
/// Core Location, BackgroundTasks and UserNotifications come back as the `SystemCall`s the
/// simulator carries out.
///
/// The simulator calls it only while the app may run code, and on one thread.
package protocol HostedApp: AnyObject, Sendable {
    /// Runs the app's code for `event` and returns what it asked of the system, in order.
    func handle(_ event: AppCallback, system: HostedSystemState) -> HostedResult
    /// The system's background session delivers an upload's answer to the running app.
    func uploadFinished(_ description: String, answer: HostedAnswer, system: HostedSystemState) -> HostedResult
    /// A data task's answer reaches its completion handler (the app still runs).
    func dataTaskFinished(_ id: Int, answer: HostedAnswer, system: HostedSystemState) -> HostedResult
    /// The user logged in again after the server refused the device or ended the session: the
    /// app gets new credentials (and starts tracking again if the session's end had stopped it).
    func credentialsChanged(system: HostedSystemState) -> HostedResult
    /// The open refresh or processing task's time is nearly up: iOS calls its expiration handler.
    func backgroundTaskExpiring(_ identifier: String, system: HostedSystemState) -> HostedResult
    /// A `requestLocation()` ends without a fix: Core Location calls the asking manager's delegate,
    /// `locationManager(_:didFailWithError:)`, with a `CLError` of `failure`'s code.
    func locationFailed(_ failure: LocationFailure, system: HostedSystemState) -> HostedResult
    /// iOS 18 sends the location sessions the app holds a diagnostic (their `diagnostics`
    /// sequences): `causes` are its true properties (docs/ios-policy.md §Causes).
    func sessionDiagnostic(_ causes: Set<StopCause>, system: HostedSystemState) -> HostedResult
    /// MetricKit's report reaches the app's subscribers (`didReceive(_:)`), after the fact.
    func metricReport(_ report: BackgroundExitCounts, system: HostedSystemState) -> HostedResult
    /// The tasks the app's ledger holds open, named by the identifiers the system handed out.
    var ledgerOpenTasks: [BackgroundTaskToken] { get }
    /// The user force-quits the app while it runs: iOS calls `applicationWillTerminate` first
    /// (never for a suspended app, which it kills without running its code).
    func willTerminate(system: HostedSystemState) -> HostedResult
    /// The user unlocked the phone for the first time since it booted, while the app runs: UIKit
    /// posts `UIApplication.protectedDataDidBecomeAvailableNotification`.
    func protectedDataDidBecomeAvailable(system: HostedSystemState) -> HostedResult
    /// Samples the app keeps outside the phone's store for now (taken before the first unlock,
    /// in files the store's protection would not allow): on the phone, not lost.
    var samplesHeldOutsideStore: Int { get }
    /// The process was killed: its memory is gone; what it wrote to disk stays.
    func processTerminated()
    /// The simulated day is over.
    func simulationEnded()
    /// What the app's status shows the user now, one line each (for the report's end).
    var statusLines: [String] { get }
    /// Fixes the app received and refused to record (too coarse, stale, invalid), over the day.
    var fixesRejected: Int { get }
}

extension HostedApp {
    /// App code with no status of its own to show.
    package var statusLines: [String] { [] }
    /// App code that refuses no fix (or does not say).
    package var fixesRejected: Int { 0 }
    /// App code that does nothing when told it will terminate.
    package func willTerminate(system: HostedSystemState) -> HostedResult { HostedResult() }
    /// App code that does nothing at the first unlock.
    package func protectedDataDidBecomeAvailable(system: HostedSystemState) -> HostedResult { HostedResult() }
    /// App code that keeps every sample in the phone's store.
    package var samplesHeldOutsideStore: Int { 0 }
    /// App code that holds no location session.
    package func sessionDiagnostic(_ causes: Set<StopCause>, system: HostedSystemState) -> HostedResult {
        HostedResult()
    }
    /// App code that does not subscribe to MetricKit.
    package func metricReport(_ report: BackgroundExitCounts, system: HostedSystemState) -> HostedResult {
        HostedResult()
    }
    /// App code that starts no data task.
    package func dataTaskFinished(_ id: Int, answer: HostedAnswer, system: HostedSystemState) -> HostedResult {
        HostedResult()
    }
    /// App code that ignores location errors.
    package func locationFailed(_ failure: LocationFailure, system: HostedSystemState) -> HostedResult {
        HostedResult()
    }
}

/// Why a one-shot fix cannot be had, as `CLError.Code` says it (docs/ios-policy.md §Contract).
package enum LocationFailure: Int, Hashable, Sendable, CustomStringConvertible {
    /// No fix in time: no signal, or the app may not get one now (`kCLErrorLocationUnknown`).
    case locationUnknown = 0
    /// Location Services off or the app's permission denied (`kCLErrorDenied`).
    case denied = 1

    package var description: String {
        switch self {
        case .locationUnknown: return "locationUnknown"
        case .denied: return "denied"
        }
    }
}

/// Makes the hosted app of one simulation.
package protocol HostedAppFactory: Sendable {
    /// What the report calls this shell ("ios").
    var name: String { get }
    /// The app of one simulated day; it stores its samples in `store`, the phone's store whose
    /// contents the simulator's nothing-lost check reads.
    func makeApp(for configuration: SimulationConfiguration, store: LocationStore) -> any HostedApp
}

/// What hosted app code did while handling one event.
package struct HostedResult: Sendable {
    /// The calls it made to iOS, in order.
    package var effects: [SystemCall]
    /// Fixes it stored as samples (already in the phone's store).
    package var recorded: [LocationFix]
    /// Uploads it handed to its background session.
    package var uploads: [HostedUpload]
    /// What the runtime contract judges (a crash ends the effects: none after it were made).
    package var runtime: [RuntimeCall]
    /// Data tasks it started (`URLSession.shared`, in process): answered while it still runs.
    package var dataTasks: [HostedDataTask]

    package init(
        effects: [SystemCall] = [], recorded: [LocationFix] = [], uploads: [HostedUpload] = [],
        runtime: [RuntimeCall] = [], dataTasks: [HostedDataTask] = []
    ) {
        self.effects = effects
        self.recorded = recorded
        self.uploads = uploads
        self.runtime = runtime
        self.dataTasks = dataTasks
    }
}

/// A request the app sent with an ordinary (not background) `URLSession` data task: it runs only
/// while the app does, and its completion handler is called in the app's process.
package struct HostedDataTask: Sendable, Hashable {
    /// Names the task's completion handler in the app.
    package var id: Int
    /// The request's method and path, e.g. `POST /v1/sessions/heartbeat`.
    package var request: String

    package init(id: Int, request: String) {
        self.id = id
        self.request = request
    }

    /// The login's heartbeat (docs/protocol.md §Sessions).
    package static let heartbeat = "POST /v1/sessions/heartbeat"
}

/// A batch the app handed to its background `URLSession`, read back from the file it uploads.
package struct HostedUpload: Sendable {
    /// The task's description, which comes back with its answer.
    package var description: String
    package var samples: [Sample]
    /// The gap intervals the batch carries (version 2), as the server reads them.
    package var gaps: [WireGap]
    /// The device the batch names, if any (the server refuses one that is not the token's).
    package var device: String?

    package init(description: String, samples: [Sample], gaps: [WireGap] = [], device: String? = nil) {
        self.description = description
        self.samples = samples
        self.gaps = gaps
        self.device = device
    }
}

/// A request's answer as `URLSession` delivers it: an HTTP status and body, or an error.
package struct HostedAnswer: Sendable, Hashable {
    package var status: Int?
    package var body: Data
    package var retryAfter: String?
    package var error: String?
    /// The error says the phone had no network at all.
    package var offline = false

    /// What a request over real HTTP got: a status and body, or (status `nil`) no answer.
    package init(_ exchange: (status: Int?, body: Data?)) {
        status = exchange.status
        body = exchange.body ?? Data()
        error = exchange.status == nil ? "the server did not answer" : nil
    }

    /// The phone has no network: the request fails at once (`NSURLErrorNotConnectedToInternet`).
    package static let noNetwork = HostedAnswer(.noNetwork(message: "The Internet connection appears to be offline."))

    /// A login the server did not open, so the heartbeat could not be sent.
    package static let loginFailed = HostedAnswer((status: nil, body: nil))

    /// The track server's answer to `POST /v1/sessions/heartbeat` (docs/protocol.md §Sessions):
    /// 200 with the session's new expiry, or 401 once the session was revoked.
    package static func heartbeat(revoked: Bool, expiresAt: Instant) -> HostedAnswer {
        guard !revoked else { return HostedAnswer(.unauthorized(status: 401, message: "session revoked")) }
        return HostedAnswer((status: 200, body: Data(#"{"expires_at":\#(expiresAt.milliseconds)}"#.utf8)))
    }

    /// The HTTP answer the track server gives for `outcome` (docs/protocol.md §Acknowledgement).
    package init(_ outcome: UploadOutcome) {
        func error(_ message: String) -> Data { (try? JSONEncoder().encode(ErrorResponse(error: message))) ?? Data() }
        retryAfter = nil
        self.error = nil
        switch outcome {
        case .acknowledged(let ack):
            status = 200
            var response = BatchResponse(
                accepted: ack.stored.map(\.uuidString).sorted(),
                rejected: ack.rejected.map { BatchResponse.Rejection(id: $0.key.uuidString, reason: $0.value) })
            // Absent when the batch carried none, as the track server answers.
            if !ack.gaps.isEmpty { response.gapsStored = ack.gaps.map(\.uuidString).sorted() }
            body = (try? JSONEncoder().encode(response)) ?? Data()
        case .badRequest(let message): (status, body) = (400, error(message))
        case .tooLarge: (status, body) = (413, error("the batch is too large"))
        case .unauthorized(let code, let message): (status, body) = (code, error(message))
        case .rateLimited(let after):
            (status, body) = (429, error("too many requests"))
            retryAfter = after.map { String(Int64($0.seconds)) }
        case .serverError(let code, let message), .clientError(let code, let message):
            (status, body) = (code, error(message))
        case .unexpectedResponse(let message): (status, body) = (200, error(message))
        case .networkError(let message): (status, body, self.error) = (nil, Data(), message)
        case .noNetwork(let message): (status, body, self.error, offline) = (nil, Data(), message, true)
        }
    }
}
