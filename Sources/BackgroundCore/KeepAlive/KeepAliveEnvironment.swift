/// What the app knows about the device when a machine starts or conditions change.
public struct KeepAliveEnvironment: Hashable, Sendable {
    /// The major iOS version (`6`, `12`, `16`, `17`, `18`, …); gates APIs such as
    /// `CLBackgroundActivitySession` (17+) and `BGTaskScheduler` (13+).
    public var iosMajor: Int
    public var authorization: LocationAuthorization
    public var locationServicesEnabled: Bool
    public var lowPowerMode: Bool
    /// Battery level 0…1.
    public var batteryLevel: Double
    public var charging: Bool
    /// Settings › Background App Refresh for this app.
    public var backgroundRefreshAvailable: Bool
    /// The app opted in to silent-audio keep-alive (App Review risk, off by default).
    public var allowsSilentAudio: Bool
    /// Settings › Privacy › Location Services › this app › Precise Location (iOS 14+). Off, the
    /// app gets `reducedAccuracy`: positions "usually within 1–20 kilometers", updated "at most a
    /// few times per hour", and no region monitoring (`kCLLocationAccuracyReduced`).
    public var preciseLocation: Bool

    public init(
        iosMajor: Int,
        authorization: LocationAuthorization = .always,
        locationServicesEnabled: Bool = true,
        lowPowerMode: Bool = false,
        batteryLevel: Double = 1,
        charging: Bool = false,
        backgroundRefreshAvailable: Bool = true,
        allowsSilentAudio: Bool = false,
        preciseLocation: Bool = true
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

    public var hasBackgroundActivitySession: Bool { iosMajor >= 17 }
    public var hasBackgroundTasksFramework: Bool { iosMajor >= 13 }
    /// Battery low enough that only essential background work should run (iOS treats < 20 % so).
    public var batteryIsLow: Bool { !charging && batteryLevel < 0.2 }
}
