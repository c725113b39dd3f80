public import BackgroundCore
public import BackgroundTracker
public import Foundation
public import LocationLog
public import Observation

#if canImport(UIKit)
    public import UIKit
#else
    public import ShadowUIKit
#endif

/// Everything the example app's screens read and do, in one place; the SwiftUI views only draw
/// it. This file compiles on Linux against `AppleShadow` (target `TrackerAppModel`); the views
/// in `App/` need SwiftUI and MapKit and build only in Xcode.
@MainActor
@Observable
public final class TrackerModel {
    /// What the user set on the settings screen; read at launch. The token lives in the Keychain
    /// (``TokenKeychain``); the rest in `UserDefaults`, where releases before issue 40 kept the
    /// token too.
    public struct Settings: Codable, Hashable, Sendable {
        public var server = "https://tracks.example.com"
        public var token = ""
        public var strategy = StrategyName.adaptive.rawValue

        public init() {}
    }

    /// The tracker's state as SwiftUI reads it (the library's `ObservableTracker`): the views
    /// read it and are redrawn when it changes, with no stream to iterate here.
    public private(set) var live: ObservableTracker?
    /// The status, or an idle one before the tracker exists.
    public var status: TrackerStatus { live?.status ?? TrackerStatus() }
    /// The newest samples on the phone, newest first.
    public var recent: [Sample] { live?.recentSamples ?? [] }
    /// Why the tracker could not start (a bad server URL, a store that cannot be opened).
    public private(set) var problem: String?
    /// The settings in use since launch; edits apply at the next launch, because task
    /// identifiers may be registered only once per process.
    public private(set) var active: Settings
    public var edited: Settings

    private var tracker: Tracker?
    private let defaults: UserDefaults
    private let keychain: TokenKeychain
    private static let settingsKey = "TrackerApp.settings"

    /// Reads the settings, moving a token an earlier release kept in `UserDefaults` into the
    /// Keychain once (it stays in `UserDefaults` if the Keychain refuses it: nothing is lost).
    ///
    /// Before the first unlock after a reboot (a location relaunch) neither can be read: the
    /// defaults stand in until ``protectedDataDidBecomeAvailable()`` reads them again.
    public init(defaults: UserDefaults = .standard, keychain: TokenKeychain = TokenKeychain(service: "TrackerApp")) {
        self.defaults = defaults
        self.keychain = keychain
        let settings = Self.readSettings(defaults: defaults, keychain: keychain)
        self.active = settings
        self.edited = settings
    }

    private static func readSettings(defaults: UserDefaults, keychain: TokenKeychain) -> Settings {
        var saved = defaults.data(forKey: Self.settingsKey).flatMap {
            try? JSONDecoder().decode(Settings.self, from: $0)
        }
        let legacy = saved.map(\.token).flatMap { $0.isEmpty ? nil : $0 }
        let token = keychain.migrate(legacy: legacy) {
            saved?.token = ""
            Self.write(saved ?? Settings(), to: defaults)
        }
        var settings = saved ?? Settings()
        settings.token = token ?? ""
        return settings
    }

    /// Call from `applicationProtectedDataDidBecomeAvailable(_:)`: after a launch before the first
    /// unlock, the settings and the token can be read now; the tracker takes the server and token
    /// and moves in the samples it held.
    public func protectedDataDidBecomeAvailable() {
        guard let tracker, tracker.isWaitingForFirstUnlock else { return }
        let settings = Self.readSettings(defaults: defaults, keychain: keychain)
        active = settings
        edited = settings
        var configuration = tracker.configuration
        if let server = URL(string: settings.server) { configuration.server = server }
        configuration.token = settings.token
        tracker.protectedDataDidBecomeAvailable(configuration: configuration)
    }

    /// The settings without the token, which is the Keychain's.
    private static func write(_ settings: Settings, to defaults: UserDefaults) {
        if let data = try? JSONEncoder().encode(settings) { defaults.set(data, forKey: settingsKey) }
    }

    /// The strategies the picker offers.
    public var strategies: [StrategyName] { StrategyName.allCases }

    /// Call from `application(_:didFinishLaunchingWithOptions:)`.
    public func didFinishLaunching(_ options: [UIApplication.LaunchOptionsKey: Any]?) {
        guard tracker == nil else { return }
        guard let server = URL(string: active.server), server.scheme == "https" || server.scheme == "http",
            server.host != nil
        else {
            problem = "The server address \"\(active.server)\" is not a URL; set one like https://tracks.example.com."
            return
        }
        let strategy = StrategyName(rawValue: active.strategy) ?? .adaptive
        do {
            let tracker = try Tracker(
                configuration: .init(server: server, token: active.token, strategy: strategy))
            tracker.didFinishLaunching(options)
            self.tracker = tracker
            live = tracker.observable
        } catch {
            problem = "Tracking cannot start: \(error)"
        }
    }

    /// The line under Start: why the app asks for notifications when tracking is turned on.
    public let startExplanation =
        "Start asks to send you notifications, so the app can warn you if iOS stops tracking in the background."

    /// Turns tracking on. The first time, iOS asks the user for notifications (the moment the
    /// line above explains: the dead-man notice is the only warning that tracking stopped) and
    /// for When-In-Use location.
    public func start() {
        tracker?.requestNoticePermission()
        tracker?.start()
    }

    /// What the screen says while notices cannot reach the user (denied, never asked, or quiet).
    public var noticesProblem: String? { status.isTracking ? status.noticePermission.problem : nil }
    public func stop() { tracker?.stop() }

    /// Whether to show the "track while the app is closed" card: the user allowed When-In-Use
    /// and the strategy works best with Always, which iOS lets the app ask for once.
    public var offersAlwaysUpgrade: Bool { status.canRequestAlways }

    /// The card's button: the moment Apple recommends for the Always upgrade, when the user has
    /// just chosen background tracking and read why. iOS shows its upgrade prompt.
    public func allowTrackingInTheBackground() { tracker?.requestAlwaysAuthorization() }

    /// Saves the edited settings (the token in the Keychain); they take effect at the next launch.
    /// If the Keychain refuses the token it is kept in `UserDefaults` and moved at a later launch.
    public func saveSettings() {
        var stored = edited
        do {
            try keychain.save(edited.token)
            stored.token = ""
        } catch {
            problem = "The token is kept in the app's settings for now: \(error)."
        }
        Self.write(stored, to: defaults)
    }

    public var settingsChanged: Bool { edited != active }

    public func didEnterBackground() { tracker?.applicationDidEnterBackground() }
    public func willEnterForeground() { tracker?.applicationWillEnterForeground() }

    /// Forward from the app delegate; returns whether the session was the tracker's.
    ///
    /// Apple requires the completion handler be called. When no tracker runs in this process (its
    /// store would not open) or the session is not the tracker's, this app has nothing to do with
    /// the events, so it calls the handler at once instead of dropping it (issue 40).
    @discardableResult
    public func handleEventsForBackgroundURLSession(_ identifier: String, completion: @escaping () -> Void) -> Bool {
        guard let tracker, tracker.handleEventsForBackgroundURLSession(identifier: identifier, completionHandler: completion)
        else {
            completion()
            return false
        }
        return true
    }

    /// Forward from the app delegate: a silent push from the server. The tracker calls the handler
    /// when its wake's work is done; with no tracker in this process the handler is called at once
    /// (iOS terminates an app that has not called it within 30 s).
    public func didReceiveSilentPush(completion: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let tracker else {
            completion(.noData)
            return
        }
        tracker.didReceiveRemoteNotification(fetchCompletionHandler: completion)
    }

    @discardableResult
    public func didReceiveNotification(_ identifier: String) -> Bool {
        tracker?.didReceiveNotificationResponse(requestIdentifier: identifier) ?? false
    }

    /// Writes the diagnostics report to a temporary file for the share sheet.
    public func exportDiagnostics() throws -> URL {
        let report = tracker?.diagnosticsReport() ?? "BackgroundTracker diagnostics\n\(problem ?? "not started")\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracker-diagnostics.txt")
        try Data(report.utf8).write(to: url, options: .atomic)
        return url
    }
}
