public import BackgroundCore

/// A position in a track: what geometry and exports need, nothing about the phone.
public struct TrackPoint: Hashable, Sendable {
    public var time: Instant
    /// Degrees, -90…90.
    public var latitude: Double
    /// Degrees, -180…180.
    public var longitude: Double
    /// Horizontal accuracy in metres.
    public var accuracy: Double?
    /// Metres above sea level.
    public var altitude: Double?
    /// Metres per second.
    public var speed: Double?
    /// Degrees clockwise from true north.
    public var course: Double?

    public init(
        time: Instant, latitude: Double, longitude: Double, accuracy: Double? = nil, altitude: Double? = nil,
        speed: Double? = nil, course: Double? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.altitude = altitude
        self.speed = speed
        self.course = course
    }
}
