package import BackgroundCore

/// The phone's settings and power state as the app's code can read them (Settings, the
/// battery, the charger): what the simulator's world changes and the shadow frameworks answer.
package struct SystemSettings: Hashable, Sendable {
    /// The iOS major version the phone runs.
    package var iosMajor: Int
    /// The app's location authorisation.
    package var authorization: LocationAuthorization
    /// Settings > Privacy > Location Services.
    package var locationServicesEnabled: Bool
    package var lowPowerMode: Bool
    /// 0...1.
    package var batteryLevel: Double
    package var charging: Bool
    /// Background App Refresh on for the app (and not disabled by Low Power Mode).
    package var backgroundRefreshAvailable: Bool
    /// The app may play silent audio to stay running (a configuration of the simulated app).
    package var allowsSilentAudio: Bool
    /// Precise Location on for the app.
    package var preciseLocation: Bool

    package init(
        iosMajor: Int, authorization: LocationAuthorization = .always, locationServicesEnabled: Bool = true,
        lowPowerMode: Bool = false, batteryLevel: Double = 1, charging: Bool = false,
        backgroundRefreshAvailable: Bool = true, allowsSilentAudio: Bool = false, preciseLocation: Bool = true
    ) {
        self.iosMajor = iosMajor
        self.authorization = authorization
        self.locationServicesEnabled = locationServicesEnabled
        self.lowPowerMode = lowPowerMode
        self.batteryLevel = batteryLevel
        self.charging = charging
        self.backgroundRefreshAvailable = backgroundRefreshAvailable
        self.allowsSilentAudio = allowsSilentAudio
        self.preciseLocation = preciseLocation
    }

    /// Below 20 % and not charging.
    package var batteryIsLow: Bool { !charging && batteryLevel < 0.2 }
}
