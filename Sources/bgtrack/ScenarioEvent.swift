import BackgroundCore
import IOSSimulator

/// `--at HH:MM=EVENT`: something that happens to the simulated phone at a time of the day.
struct ScenarioEvent {
    static let names: [String: Scenario.Happening] = [
        "force-quit": .forceQuit, "reboot": .reboot, "unlock": .firstUnlock, "low-power-on": .lowPowerMode(true),
        "low-power-off": .lowPowerMode(false), "refresh-off": .backgroundAppRefresh(false),
        "refresh-on": .backgroundAppRefresh(true), "location-off": .locationServices(false),
        "location-on": .locationServices(true), "deny": .authorization(.denied),
        "when-in-use": .authorization(.whenInUse), "always": .authorization(.always),
        "revoke-session": .revokeSession, "renew-session": .renewSession, "charge-on": .charging(true),
        "charge-off": .charging(false), "storage-full": .storageFull(true), "storage-freed": .storageFull(false),
        "notifications-off": .notifications(false), "notifications-on": .notifications(true),
        "call": .phoneCall(seconds: 300), "open-app": .openApp(seconds: 120),
        "approximate": .preciseLocation(false), "precise": .preciseLocation(true), "allow-once": .allowOnce,
    ]

    /// The phone's network goes down or comes back: not a happening but an outage window of the
    /// scenario, which repeats each day as the scenario's own outages do.
    static let network: [String: Bool] = ["network-off": false, "network-on": true]

    let seconds: Double
    /// What happens, or `nil` for a network event (`networkUp`).
    let happening: Scenario.Happening?
    let networkUp: Bool?

    /// Parses `HH:MM=event` (hours may exceed 23 for multi-day runs).
    init(parsing text: String) throws(ScenarioEventError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, Self.names[parts[1]] != nil || Self.network[parts[1]] != nil else {
            throw ScenarioEventError(
                "--at '\(text.prefix(80))' is not TIME=EVENT with a known event; events: "
                    + (Array(Self.names.keys) + Array(Self.network.keys)).sorted().joined(separator: ", ")
                    + " (e.g. --at 07:48=force-quit).")
        }
        let clock = parts[0].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2, let hours = Int(clock[0]), let minutes = Int(clock[1]),
            (0...719).contains(hours), (0...59).contains(minutes)
        else {
            throw ScenarioEventError("--at '\(text.prefix(80))': the time must be HH:MM, hours 0…719, minutes 0…59.")
        }
        self.seconds = Double(hours * 3600 + minutes * 60)
        self.happening = Self.names[parts[1]]
        self.networkUp = Self.network[parts[1]]
        if networkUp != nil, hours > 23 {
            throw ScenarioEventError(
                "--at '\(text.prefix(80))': network events are times of the day (00:00…23:59) and repeat each day.")
        }
    }
}

struct ScenarioEventError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ScenarioEvent {
    /// The outage windows `events`' network-off and network-on make, in seconds after midnight:
    /// each network-off until the next network-on, or until midnight.
    static func outages(_ events: [ScenarioEvent]) -> [ClosedRange<Double>] {
        var windows: [ClosedRange<Double>] = []
        var downSince: Double?
        for event in events.filter({ $0.networkUp != nil }).sorted(by: { $0.seconds < $1.seconds }) {
            if event.networkUp == false {
                downSince = downSince ?? event.seconds
            } else if let since = downSince {
                windows.append(since...event.seconds)
                downSince = nil
            }
        }
        if let since = downSince { windows.append(since...86_400) }
        return windows
    }
}

extension Scenario {
    /// The day with `events` added: their happenings, and the outages their network events make.
    func adding(_ events: [ScenarioEvent]) -> Scenario {
        var day = self
        let happenings = events.compactMap { event in event.happening.map { (at: event.seconds, $0) } }
        day.happenings = (day.happenings + happenings).sorted { $0.at < $1.at }
        day.networkOutages += ScenarioEvent.outages(events)
        return day
    }
}
