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

    let seconds: Double
    let happening: Scenario.Happening

    /// Parses `HH:MM=event` (hours may exceed 23 for multi-day runs).
    init(parsing text: String) throws(ScenarioEventError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let happening = Self.names[parts[1]] else {
            throw ScenarioEventError(
                "--at '\(text.prefix(80))' is not TIME=EVENT with a known event; events: "
                    + Self.names.keys.sorted().joined(separator: ", ") + " (e.g. --at 07:48=force-quit).")
        }
        let clock = parts[0].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2, let hours = Int(clock[0]), let minutes = Int(clock[1]),
            (0...719).contains(hours), (0...59).contains(minutes)
        else {
            throw ScenarioEventError("--at '\(text.prefix(80))': the time must be HH:MM, hours 0…719, minutes 0…59.")
        }
        self.seconds = Double(hours * 3600 + minutes * 60)
        self.happening = happening
    }
}

struct ScenarioEventError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
