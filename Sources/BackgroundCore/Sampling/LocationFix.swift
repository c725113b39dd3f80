/// One position as a location provider reported it, before any filtering.
///
/// A plain value type so core logic never sees CoreLocation: the iOS shell converts a
/// `CLLocation`, the simulator and the Linux device build these directly. Optional fields are
/// `nil` when the provider did not measure them; "unknown" is never encoded as 0 or -1.
public struct LocationFix: Hashable, Sendable {
    /// When the provider measured the position (not when it was delivered).
    public var timestamp: Instant
    /// Degrees, -90…90.
    public var latitude: Double
    /// Degrees, -180…180.
    public var longitude: Double
    /// Horizontal accuracy radius in metres (68 % confidence), > 0.
    public var horizontalAccuracy: Double
    /// Metres above sea level.
    public var altitude: Double?
    /// Metres per second, ≥ 0.
    public var speed: Double?
    /// Degrees clockwise from true north, 0…360.
    public var course: Double?
    /// The app has only approximate location (Precise Location off, `reducedAccuracy`): the
    /// position is kilometres off on purpose. Such fixes are kept even though their accuracy is
    /// worse than the sampling limit, since no better one can come (issue 8, item 6).
    public var isApproximate: Bool

    public init(
        timestamp: Instant,
        latitude: Double,
        longitude: Double,
        horizontalAccuracy: Double,
        altitude: Double? = nil,
        speed: Double? = nil,
        course: Double? = nil,
        isApproximate: Bool = false
    ) {
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.isApproximate = isApproximate
    }
}

/// What caused a sample to be taken. The raw values are the wire format's `trigger` field.
///
/// `motion`: a fix asked for when the motion coprocessor reported that the user set off, so a
/// trip's first leg starts where the person left rather than at the next slot's fix (a server
/// older than the trigger refuses such a sample one by one and keeps the rest of the batch).
public enum SampleTrigger: String, CaseIterable, Codable, Hashable, Sendable {
    case timer, significant, visit, region, foreground, refresh, push, manual, motion
}

/// Whether the app was on screen when a sample was taken. Raw values are the wire's `state`.
public enum SampleAppState: String, CaseIterable, Codable, Hashable, Sendable {
    case foreground, background
}
