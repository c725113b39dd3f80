public import BackgroundCore
public import Foundation
public import LocationLog

extension Tracker {
    /// What the app decides: where to upload, with which token, and how to keep alive.
    ///
    /// ```swift
    /// let configuration = Tracker.Configuration(server: url, token: token, strategy: .adaptive)
    /// ```
    public struct Configuration: Sendable {
        /// The track server's base URL; batches go to `<server>/v1/batches`.
        public var server: URL
        /// The device token (sent as `Authorization: Bearer`; never logged).
        public var token: String
        /// The keep-alive strategy; `adaptive` unless you measured a better one (`bgtrack compare`).
        public var strategy: StrategyName
        /// The device name batches carry (`bgtrack device add NAME`); it must be the token's own
        /// device, or the server refuses every batch. `nil` (the default) sends none: the server
        /// files the samples under the token's device.
        public var device: String?
        public var sampling: SamplingMachine.Configuration
        public var sync: SyncMachine.Configuration
        /// Where the store, pending upload bodies and the shell's state live; `nil` is
        /// `Application Support/BackgroundTracker` (never Caches, which iOS may purge).
        public var directory: URL?
        /// The background `URLSession`'s identifier; keep it stable across releases, or uploads in
        /// flight at an update are answered to nobody.
        public var uploadSessionIdentifier: String
        /// Let the strategies play silent audio when nothing else keeps a When-In-Use app running
        /// (before iOS 17). Off by default: App Review guideline 2.5.4 allows background audio for
        /// audible content only, and the app also needs the `audio` background mode.
        public var allowsSilentAudio: Bool
        /// The session token from `POST /v1/sessions`, if the app logs its user in. With one, the
        /// tracker sends heartbeats (`POST /v1/sessions/heartbeat`) while it tracks and nothing
        /// else reached the server for `heartbeat.interval`, and when the server ends the session
        /// (401/403) it stops tracking and asks the user to log in again. `nil`: no heartbeats;
        /// uploads show the server the phone is alive.
        public var sessionToken: String?
        public var heartbeat: HeartbeatMachine.Configuration

        public init(
            server: URL, token: String, strategy: StrategyName = .adaptive, device: String? = nil,
            sampling: SamplingMachine.Configuration = .init(), sync: SyncMachine.Configuration = .init(),
            directory: URL? = nil, uploadSessionIdentifier: String = "com.backgroundtracker.upload",
            allowsSilentAudio: Bool = false, sessionToken: String? = nil,
            heartbeat: HeartbeatMachine.Configuration = .init()
        ) {
            self.allowsSilentAudio = allowsSilentAudio
            self.sessionToken = sessionToken
            self.heartbeat = heartbeat
            self.server = server
            self.token = token
            self.strategy = strategy
            self.device = device
            self.sampling = sampling
            self.sync = sync
            self.directory = directory
            self.uploadSessionIdentifier = uploadSessionIdentifier
        }
    }
}

/// What the tracker last did, for the app's screen.
public struct TrackerStatus: Hashable, Sendable {
    public var isTracking = false
    /// When the newest stored sample was measured.
    public var lastSample: Date?
    /// Samples stored on the phone and not yet acknowledged by the server.
    public var pending = 0
    /// When the server last acknowledged an upload.
    public var lastUpload: Date?
    /// Notices posted to the user since launch, oldest first; the newest `noticeLimit`.
    public var notices: [UserNotice] = []
    /// How many notices `notices` keeps.
    public static let noticeLimit = 20
    /// The last problem the tracker could not fix by itself (store or upload), if any.
    public var lastProblem: String?
    /// Where the user's location permission stands.
    public var authorization: LocationAuthorization = .notDetermined
    /// Whether the app can still show iOS's Always upgrade prompt
    /// (``Tracker/requestAlwaysAuthorization()``): the user allowed When-In-Use, the
    /// strategy relaunches the app with Always, and the upgrade was never asked for.
    public var canRequestAlways = false
    /// Whether iOS shows the tracker's notices, the dead-man notice among them
    /// (``Tracker/requestNoticePermission(provisional:)``); ``NoticePermission/problem`` says
    /// what it means for the user when they are off.
    public var noticePermission = NoticePermission.notDetermined
    /// The last notice iOS refused to show, and why (`add`'s error); `nil` if none was refused.
    public var noticeRefused: String?
    /// Why iOS last stopped location or ended the app, in the user's words, as iOS said it (a
    /// location session diagnostic on iOS 18, or MetricKit's exit report a day after a kill);
    /// `nil` until iOS said something.
    public var lastStopCause: String?
    /// The server ended the login session (a heartbeat was answered 401 or 403): tracking stopped
    /// and stays off until the user logs in again. Then call
    /// ``Tracker/credentialsChanged(token:sessionToken:)`` with the new session token, and
    /// ``Tracker/start()``.
    public var sessionEnded = false

    public init() {}
}

/// Whether iOS shows the app's notices (its notification authorization).
public enum NoticePermission: String, CaseIterable, Hashable, Sendable {
    /// The app has not asked yet: iOS shows nothing until it does.
    case notDetermined = "not-determined"
    /// The user refused notifications (at the prompt or in Settings).
    case denied
    /// Notices arrive with a banner and a sound.
    case allowed
    /// Provisional: notices arrive quietly in Notification Center, without banner or sound.
    case quiet

    /// What the status tells the user when notices cannot warn them; `nil` when they can.
    public var problem: String? {
        switch self {
        case .notDetermined:
            return "notices off: the app has not asked for notification permission yet; tracking continues "
                + "but you won't be warned if it stops"
        case .denied:
            return "notices off: the user denied notifications; tracking continues but you won't be warned "
                + "if it stops (allow them in Settings › Notifications › this app)"
        case .quiet:
            return "notices quiet: notifications are delivered quietly to Notification Center, without a "
                + "banner or sound, so a stop may go unnoticed"
        case .allowed:
            return nil
        }
    }
}
