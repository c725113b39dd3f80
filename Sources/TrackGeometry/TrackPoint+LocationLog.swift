public import LocationLog

extension Sample {
    /// The position as a geometry point (drops the phone context).
    public var trackPoint: TrackPoint {
        TrackPoint(
            time: time, latitude: latitude, longitude: longitude, accuracy: accuracy, altitude: altitude,
            speed: speed, course: course)
    }
}

extension TimelinePoint {
    public init(_ point: TrackPoint) {
        self.init(
            time: point.time, latitude: point.latitude, longitude: point.longitude, accuracy: point.accuracy,
            speed: point.speed)
    }
}
