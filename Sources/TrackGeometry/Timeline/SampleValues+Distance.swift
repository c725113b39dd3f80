import BackgroundCore

extension SampleValues {
    /// Metres to another point along the great circle.
    func distance(to other: SampleValues) -> Double {
        Haversine.distance(
            latitude1: latitude, longitude1: longitude, latitude2: other.latitude, longitude2: other.longitude)
    }

    /// Metres to a position along the great circle.
    func distance(latitude: Double, longitude: Double) -> Double {
        Haversine.distance(
            latitude1: self.latitude, longitude1: self.longitude, latitude2: latitude, longitude2: longitude)
    }
}
