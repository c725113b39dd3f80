package import BackgroundCore

extension Scenario {
    /// What `bgtrack demo` adds to the commute day, as seconds after midnight: each is a fault
    /// the phone and server must come through without losing a sample.
    package enum DemoFaults {
        package static let forceQuit = 10.5 * 3600
        package static let reopen = 11.0 * 3600
        package static let networkOutage = (13.0 * 3600)...(15.0 * 3600)
        package static let revokeSession = 16.0 * 3600
        package static let renewSession = 16.75 * 3600
        /// The demo stops its server here for `serverDownSeconds` (the phone's uploads are refused).
        package static let serverRestart = 17.0 * 3600
        package static let serverDownSeconds = 40.0 * 60
        package static let lowPowerOn = 19.5 * 3600
        package static let lowPowerOff = 23.5 * 3600
    }

    /// The commute day with the faults `bgtrack demo` shows: two hours without network, a
    /// force-quit and the user's relaunch, a session the server revokes and the user renews, and
    /// Low Power Mode in the evening. (The server restart is the demo's own doing, not the phone's.)
    package static func demoDay(start: Instant = defaultStart) -> Scenario {
        var day = commute(start: start)
        day.name = "demo"
        day.networkOutages.append(DemoFaults.networkOutage)
        day.happenings += [
            (DemoFaults.forceQuit, .forceQuit), (DemoFaults.reopen, .openApp(seconds: 120)),
            (DemoFaults.revokeSession, .revokeSession), (DemoFaults.renewSession, .renewSession),
            (DemoFaults.lowPowerOn, .lowPowerMode(true)), (DemoFaults.lowPowerOff, .lowPowerMode(false)),
        ]
        day.happenings.sort { $0.at < $1.at }
        return day
    }
}
