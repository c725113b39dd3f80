public import BackgroundCore

extension Haversine {
    /// Distance in metres between two track points.
    public static func distance(_ from: SampleValues, _ to: SampleValues) -> Double {
        distance(latitude1: from.latitude, longitude1: from.longitude, latitude2: to.latitude, longitude2: to.longitude)
    }

    /// Length in metres of the polyline through `points`, in order.
    public static func length(of points: [SampleValues]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + distance($1.0, $1.1) }
    }
}
