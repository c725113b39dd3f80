import BackgroundCore
import Foundation
import LocationLog

/// A WGS-84 position in degrees.
package struct Coordinate: Hashable, Sendable, Codable {
    package var latitude: Double
    package var longitude: Double

    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Great-circle distance in metres.
    package func distance(to other: Coordinate) -> Double {
        Haversine.distance(
            latitude1: latitude, longitude1: longitude, latitude2: other.latitude, longitude2: other.longitude)
    }

    /// The point `fraction` (0…1) of the way to `other`, interpolated linearly (fine at city scale).
    package func interpolated(to other: Coordinate, fraction: Double) -> Coordinate {
        Coordinate(
            latitude: latitude + (other.latitude - latitude) * fraction,
            longitude: longitude + (other.longitude - longitude) * fraction)
    }

    /// The point `north` and `east` metres away (flat-earth offset, fine below a few km).
    package func offset(north: Double, east: Double) -> Coordinate {
        let metresPerDegree = 111_320.0
        return Coordinate(
            latitude: latitude + north / metresPerDegree,
            longitude: longitude + east / (metresPerDegree * cos(latitude * Double.pi / 180)))
    }
}
