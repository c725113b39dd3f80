package import BackgroundCore
import Foundation
import LocationLog

/// Replays a route as location fixes at any instant: the Linux device's fake GPS.
///
/// The route's own timing is kept when every point has a time (and times increase); otherwise
/// points are spaced `spacing` apart. Past the end, the route starts again from its beginning,
/// so a device can run for days. Positions between points are interpolated linearly.
package struct RoutePlayer: Sendable {
    /// Offsets from the route's start, increasing, one per point.
    private let offsets: [Duration]
    private let points: [RouteFile.RoutePoint]
    package let start: Instant
    /// Horizontal accuracy reported with each fix, in metres.
    package var accuracy: Double

    /// - Parameters:
    ///   - points: at least two points.
    ///   - start: the instant the route's first point is replayed at.
    ///   - spacing: time between points when the file has no usable times.
    package init(points: [RouteFile.RoutePoint], start: Instant, spacing: Duration = .seconds(60), accuracy: Double = 8)
    {
        let times = points.compactMap(\.time)
        let timed =
            times.count == points.count && zip(times, times.dropFirst()).allSatisfy { $0 < $1 } && points.count >= 2
        if timed, let first = times.first {
            offsets = times.map { $0 - first }
        } else {
            offsets = points.indices.map { spacing * $0 }
        }
        self.points = points
        self.start = start
        self.accuracy = accuracy
    }

    /// How long one pass over the route takes.
    package var duration: Duration { offsets.last ?? .zero }

    /// The fix a GPS would report at `now`.
    package func fix(at now: Instant) -> LocationFix {
        guard points.count >= 2, duration > .zero else {
            let point = points.first ?? RouteFile.RoutePoint(latitude: 31.2304, longitude: 121.4737)
            return LocationFix(
                timestamp: now, latitude: point.latitude, longitude: point.longitude, horizontalAccuracy: accuracy)
        }
        let total = duration.wholeMilliseconds
        var elapsed = (now - start).wholeMilliseconds % total
        if elapsed < 0 { elapsed += total }
        let offset = Duration.milliseconds(elapsed)
        // The last point whose offset is ≤ elapsed (binary search).
        var low = 0
        var high = offsets.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if offsets[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let a = points[low]
        let b = points[min(low + 1, points.count - 1)]
        let span = (offsets[min(low + 1, offsets.count - 1)] - offsets[low]).wholeMilliseconds
        let fraction = span > 0 ? Double((offset - offsets[low]).wholeMilliseconds) / Double(span) : 0
        let speed =
            span > 0
            ? Haversine.distance(
                latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
                / (Double(span) / 1000) : nil
        return LocationFix(
            timestamp: now, latitude: a.latitude + (b.latitude - a.latitude) * fraction,
            longitude: a.longitude + (b.longitude - a.longitude) * fraction, horizontalAccuracy: accuracy,
            altitude: a.altitude, speed: speed)
    }

    /// A built-in walk: a 1.5 km-radius loop round People's Square, Shanghai, at 1.4 m/s.
    package static func synthetic(start: Instant) -> RoutePlayer {
        let centre = (latitude: 31.2304, longitude: 121.4737)
        let radius = 1500.0
        let count = 72
        let step = 2 * Double.pi * radius / Double(count)
        let metresPerDegree = Haversine.earthRadius * .pi / 180
        let points = (0...count).map { index -> RouteFile.RoutePoint in
            let angle = 2 * Double.pi * Double(index) / Double(count)
            return RouteFile.RoutePoint(
                latitude: centre.latitude + radius * sin(angle) / metresPerDegree,
                longitude: centre.longitude + radius * cos(angle)
                    / (metresPerDegree * cos(centre.latitude * .pi / 180)),
                altitude: 4)
        }
        return RoutePlayer(points: points, start: start, spacing: .milliseconds(Int64(step / 1.4 * 1000)))
    }
}
