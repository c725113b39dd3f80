package import BackgroundCore

/// A simulated user's day: where they go, when they open the app, and what happens to the phone.
/// All times are seconds after the scenario's start.
package struct Scenario: Sendable {
    /// Something the user or the world does to the phone at a moment.
    package enum Happening: Hashable, Sendable {
        /// The user opens the app for `seconds`, then leaves it (home screen or lock).
        case openApp(seconds: Double)
        /// The user swipes the app away in the app switcher.
        case forceQuit
        /// The phone restarts: the app's process dies, and its files stay closed (data protection)
        /// until ``firstUnlock``; location events may relaunch it meanwhile.
        case reboot
        /// The user unlocks the phone for the first time since it booted (after the policy
        /// table's `reboot.unlock-delay` when the scenario names no time).
        case firstUnlock
        /// A phone call interrupts audio for `seconds`.
        case phoneCall(seconds: Double)
        case lowPowerMode(Bool)
        case backgroundAppRefresh(Bool)
        case locationServices(Bool)
        case authorization(LocationAuthorization)
        /// The user grants "Allow Once": When-In-Use until the app is no longer in use, then
        /// "not determined" again (iOS 13+).
        case allowOnce
        /// Settings › Location Services › this app › Precise Location (iOS 14+).
        case preciseLocation(Bool)
        case charging(Bool)
        /// The phone's storage fills up (`true`: the simulated disk refuses every write that would
        /// grow the store's files, `SQLITE_FULL`) or the user frees space (`false`).
        case storageFull(Bool)
        /// Settings › Notifications › the app › Allow Notifications turned on or off.
        case notifications(Bool)
        /// The server revokes the device's session (heartbeats answer 401 from now on).
        case revokeSession
        /// The user logs in again after a revoked session: the app opens and tracking restarts.
        case renewSession
    }

    package var name: String
    package var start: Instant
    package var duration: Duration
    package var track: MovementTrack
    package var happenings: [(at: Double, Happening)]
    /// Windows (seconds after start) when the phone has no network.
    package var networkOutages: [ClosedRange<Double>]
    /// Battery level at the start, drain per hour while not charging, gain per hour while charging.
    package var battery: (start: Double, drainPerHour: Double, chargePerHour: Double)
    /// Silent pushes the server sends per hour (the system may throttle them).
    package var silentPushesPerHour: Double
    /// Whether the user is logged in (heartbeats run).
    package var loggedIn: Bool

    package init(
        name: String, start: Instant, duration: Duration, track: MovementTrack,
        happenings: [(at: Double, Happening)] = [], networkOutages: [ClosedRange<Double>] = [],
        battery: (start: Double, drainPerHour: Double, chargePerHour: Double) = (1, 0.03, 0.3),
        silentPushesPerHour: Double = 0, loggedIn: Bool = true
    ) {
        self.name = name
        self.start = start
        self.duration = duration
        self.track = track
        self.happenings = happenings.sorted { $0.at < $1.at }
        self.networkOutages = networkOutages
        self.battery = battery
        self.silentPushesPerHour = silentPushesPerHour
        self.loggedIn = loggedIn
    }

    /// The same day, cut or repeated to `hours` (the track and happenings repeat every 24 h).
    package func lasting(hours: Double) -> Scenario {
        var copy = self
        copy.duration = .milliseconds(Int64(hours * 3_600_000))
        let day = 86_400.0
        // A scenario longer than a day (the week) is already its whole span: nothing repeats.
        let days = duration.seconds > day ? 1 : Int((hours * 3600 / day).rounded(.up))
        if days > 1 {
            copy.happenings = (0..<days).flatMap { index in
                happenings.map { (at: $0.at + Double(index) * day, $0.1) }
            }
            copy.networkOutages = (0..<days).flatMap { index in
                networkOutages.map { ($0.lowerBound + Double(index) * day)...($0.upperBound + Double(index) * day) }
            }
        }
        copy.happenings = copy.happenings.filter { $0.at < hours * 3600 }
        return copy
    }

    /// Whether the phone has network at `seconds` after the start.
    func networkUp(at seconds: Double) -> Bool {
        !networkOutages.contains { $0.contains(seconds.truncatingRemainder(dividingBy: 86_400)) }
    }
}
