import Foundation

/// Great-circle distances on a spherical Earth (mean radius 6,371,008.8 m).
///
/// The sphere is off by up to 0.5 % against the WGS-84 ellipsoid, far below phone GPS accuracy.
public enum Haversine {
    /// Mean Earth radius in metres (IUGG).
    public static let earthRadius = 6_371_008.8

    /// Distance in metres between two positions given in degrees.
    public static func distance(
        latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
    ) -> Double {
        let phi1 = latitude1 * .pi / 180
        let phi2 = latitude2 * .pi / 180
        let deltaPhi = phi2 - phi1
        let deltaLambda = (longitude2 - longitude1) * .pi / 180
        let a =
            sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }

    /// Distance in metres between two track points.
    public static func distance(_ from: TrackPoint, _ to: TrackPoint) -> Double {
        distance(latitude1: from.latitude, longitude1: from.longitude, latitude2: to.latitude, longitude2: to.longitude)
    }

    /// Length in metres of the polyline through `points`, in order.
    public static func length(of points: [TrackPoint]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + distance($1.0, $1.1) }
    }
}
