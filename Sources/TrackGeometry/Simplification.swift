public import BackgroundCore
import Foundation

/// Douglas–Peucker simplification with a tolerance in metres.
///
/// Points are projected onto a local equirectangular plane centred on the track (metres east and
/// north of the centre), which is accurate to well under 1 % over the few hundred kilometres of a
/// day's track, and far cheaper than spherical cross-track distances. The first and last points
/// are always kept; the result is a subsequence of the input, in order. Iterative (an explicit
/// stack), so a 1-million-point track does not overflow the call stack.
///
/// ```swift
/// let drawn = Simplification.douglasPeucker(points, tolerance: 5)   // metres
/// ```
public enum Simplification {
    public static func douglasPeucker(_ points: [SampleValues], tolerance: Double) -> [SampleValues] {
        guard points.count > 2, tolerance > 0, tolerance.isFinite else { return points }
        let plane = LocalProjection(points)
        let xy = points.map(plane.project)
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first
            var farthestDistance = -1.0
            for index in (first + 1)..<last {
                let d = segmentDistance(xy[index], xy[first], xy[last])
                if d > farthestDistance {
                    farthestDistance = d
                    farthest = index
                }
            }
            if farthestDistance > tolerance {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return zip(points, keep).compactMap { $1 ? $0 : nil }
    }

    /// Distance from `p` to the segment `a`–`b` in the plane.
    package static func segmentDistance(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        let abx = b.x - a.x
        let aby = b.y - a.y
        let apx = p.x - a.x
        let apy = p.y - a.y
        let lengthSquared = abx * abx + aby * aby
        guard lengthSquared > 0 else { return (apx * apx + apy * apy).squareRoot() }
        let t = max(0, min(1, (apx * abx + apy * aby) / lengthSquared))
        let dx = apx - t * abx
        let dy = apy - t * aby
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// An equirectangular projection around a reference point: metres east (x) and north (y).
package struct LocalProjection {
    let latitude0: Double
    let longitude0: Double
    let metresPerDegreeLatitude = Haversine.earthRadius * .pi / 180
    let metresPerDegreeLongitude: Double

    package init(_ points: [SampleValues]) {
        let count = Double(max(points.count, 1))
        latitude0 = points.reduce(0) { $0 + $1.latitude } / count
        longitude0 = points.first?.longitude ?? 0
        metresPerDegreeLongitude = metresPerDegreeLatitude * cos(latitude0 * .pi / 180)
    }

    package func project(_ point: SampleValues) -> PlanePoint {
        var deltaLongitude = point.longitude - longitude0
        // Tracks crossing the antimeridian: take the short way round.
        if deltaLongitude > 180 { deltaLongitude -= 360 }
        if deltaLongitude < -180 { deltaLongitude += 360 }
        return PlanePoint(
            x: deltaLongitude * metresPerDegreeLongitude, y: (point.latitude - latitude0) * metresPerDegreeLatitude)
    }
}

/// Metres east (x) and north (y) of a projection's centre.
package struct PlanePoint {
    package var x: Double
    package var y: Double
}
