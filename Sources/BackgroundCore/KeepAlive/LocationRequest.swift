/// How precise a location the app asks for. Mirrors the `desiredAccuracy` constants without
/// importing CoreLocation; the coarse levels avoid GPS entirely.
public enum LocationAccuracy: String, CaseIterable, Hashable, Sendable, Codable {
    /// GPS at full power (`kCLLocationAccuracyBest`).
    case best
    /// GPS (`kCLLocationAccuracyNearestTenMeters`).
    case tenMeters
    /// Wi-Fi positioning, no GPS (`kCLLocationAccuracyHundredMeters`).
    case hundredMeters
    /// Cell towers (`kCLLocationAccuracyKilometer`).
    case kilometer
    /// Cell towers, coarsest (`kCLLocationAccuracyThreeKilometers`).
    case threeKilometers

    /// Whether this level turns the GPS receiver on.
    public var usesGPS: Bool { self == .best || self == .tenMeters }
}

/// Parameters for continuous ("standard") location updates.
public struct LocationUpdatesRequest: Hashable, Sendable {
    public var accuracy: LocationAccuracy
    /// Metres between deliveries; `nil` delivers every update.
    public var distanceFilter: Double?
    /// `allowsBackgroundLocationUpdates`; needs the `location` background mode.
    public var allowsBackgroundUpdates: Bool
    /// `pausesLocationUpdatesAutomatically`, `true` by default as in iOS: updates pause when the
    /// user seems stationary and never resume by themselves; for a When-In-Use app a pause ends
    /// access to location until the app is launched again. Every strategy sets it explicitly.
    public var pausesAutomatically: Bool

    public init(
        accuracy: LocationAccuracy,
        distanceFilter: Double? = nil,
        allowsBackgroundUpdates: Bool = true,
        pausesAutomatically: Bool = true
    ) {
        self.accuracy = accuracy
        self.distanceFilter = distanceFilter
        self.allowsBackgroundUpdates = allowsBackgroundUpdates
        self.pausesAutomatically = pausesAutomatically
    }
}

/// Where a fix came from; decides the sample's trigger.
public enum FixSource: String, Hashable, Sendable, CaseIterable {
    case standardUpdates, oneShot, significantChange, visit, regionExit
}

/// The user's location permission.
public enum LocationAuthorization: String, CaseIterable, Hashable, Sendable, Codable {
    case always
    case whenInUse = "when-in-use"
    case denied
    case notDetermined = "not-determined"
}
