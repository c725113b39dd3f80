public import BackgroundCore
public import LocationLog

/// A sample as the timeline sees it: when, where, and how well the position is known.
public struct TimelinePoint: Hashable, Sendable, Codable {
    /// Epoch milliseconds.
    public var t: Int64
    public var lat: Double
    public var lon: Double
    /// Horizontal accuracy in metres, when known.
    public var acc: Double?
    /// Speed over ground in m/s, when the receiver measured it (GPS); `nil` otherwise.
    public var spd: Double?

    public init(time: Instant, latitude: Double, longitude: Double, accuracy: Double? = nil, speed: Double? = nil) {
        t = time.milliseconds
        lat = latitude
        lon = longitude
        acc = accuracy
        spd = speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    public var time: Instant { Instant(milliseconds: t) }

    func distance(to other: TimelinePoint) -> Double {
        Haversine.distance(latitude1: lat, longitude1: lon, latitude2: other.lat, longitude2: other.lon)
    }

    func distance(latitude: Double, longitude: Double) -> Double {
        Haversine.distance(latitude1: lat, longitude1: lon, latitude2: latitude, longitude2: longitude)
    }
}

extension TimelinePoint {
    public init(_ sample: Sample) {
        self.init(
            time: sample.time, latitude: sample.latitude, longitude: sample.longitude, accuracy: sample.accuracy,
            speed: sample.speed)
    }
}
