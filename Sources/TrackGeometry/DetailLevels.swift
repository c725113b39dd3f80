public import BackgroundCore
import Foundation

/// Detail levels for drawing a long track at any zoom from a fixed number of points: each point of
/// a segment gets the coarsest web-map zoom at which it must be drawn, so a map at zoom `z` draws
/// the points whose level is `<= z` and the line stays within about a pixel of the full track.
///
/// The level comes from one Douglas–Peucker pass that records, for each point, the largest
/// tolerance at which it is still kept (its distance from the chord that split it off, capped by
/// its parents'): the points kept at tolerance `t` are exactly those of
/// ``Simplification/douglasPeucker(_:tolerance:)`` at `t`, for every `t` at once. Levels are
/// monotone (a point drawn at zoom `z` is drawn at every finer zoom), the ends of a segment (the
/// two sides of a gap) are level 0, drawn at every zoom, and ``all`` draws every point.
///
/// ```swift
/// let levels = DetailLevels.levels(of: segment)   // one per point, 0…DetailLevels.all
/// ```
public enum DetailLevels {
    /// The finest level: asking for it draws every point.
    public static let all = 20
    /// Metres per 256-pixel-tile pixel at zoom 0 on the equator (web Mercator).
    public static let metresPerPixelAtZoomZero = 156_543.033_928

    /// The tolerance a map at `zoom` draws with: one pixel at the equator (about 1.5 px at 48°).
    public static func tolerance(zoom: Int) -> Double {
        metresPerPixelAtZoomZero / pow(2, Double(max(0, min(zoom, all))))
    }

    /// The level of a point that Douglas–Peucker keeps up to `importance` metres of tolerance:
    /// the smallest zoom whose tolerance is below it, ``all`` when none is.
    public static func level(importance: Double) -> Int {
        guard importance.isFinite else { return 0 }
        guard importance > tolerance(zoom: all - 1) else { return all }
        var zoom = 0
        while zoom < all, importance <= tolerance(zoom: zoom) { zoom += 1 }
        return zoom
    }

    /// One level per point of a segment (a run of points without a gap), in order.
    public static func levels(of points: [SampleValues]) -> [Int] {
        importances(of: points).map(level(importance:))
    }

    /// Per point, the largest tolerance in metres at which Douglas–Peucker keeps it: infinite for
    /// the two ends, otherwise its distance from its chord, capped by those of the points whose
    /// chords it lies within (so the importances nest). Iterative, as the simplifier.
    public static func importances(of points: [SampleValues]) -> [Double] {
        guard points.count > 2 else { return Array(repeating: .infinity, count: points.count) }
        let plane = LocalProjection(points)
        let xy = points.map(plane.project)
        var importance = [Double](repeating: 0, count: points.count)
        importance[0] = .infinity
        importance[points.count - 1] = .infinity
        var stack = [(0, points.count - 1, Double.infinity)]
        while let (first, last, cap) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first + 1
            var farthestDistance = -1.0
            for index in (first + 1)..<last {
                let d = Simplification.segmentDistance(xy[index], xy[first], xy[last])
                if d > farthestDistance {
                    farthestDistance = d
                    farthest = index
                }
            }
            let kept = min(cap, farthestDistance)
            importance[farthest] = kept
            stack.append((first, farthest, kept))
            stack.append((farthest, last, kept))
        }
        return importance
    }
}
