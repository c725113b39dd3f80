public import BackgroundCore
import Foundation
import LocationLog
import TrackGeometry

/// One stored point as the detail pass reads it: its row, and its time, position and accuracy
/// (the rest of the record is not read); they read through, `input.latitude`.
@dynamicMemberLookup
public struct DetailInput: Hashable, Sendable {
    public var row: Int64
    public var point: SampleValues

    public init(row: Int64, point: SampleValues) {
        self.row = row
        self.point = point
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<SampleValues, Value>) -> Value {
        get { point[keyPath: keyPath] }
        set { point[keyPath: keyPath] = newValue }
    }
}

/// What the detail pass decided for one stored point.
public struct DetailOutput: Hashable, Sendable {
    public var row: Int64
    /// The coarsest zoom that draws the point (``DetailLevels``), ``DayDetail/excludedLevel`` when flagged.
    public var level: Int
    public var flag: SampleFlag
    /// The first drawn point after a gap (or of the device's track): the map starts a new line here.
    public var startsSegment: Bool
}

/// The detail pass over one device-day: flags the points the ``CleanupRules`` exclude, then gives
/// every other point its ``DetailLevels`` level within its segment (cut at gaps), so the map reads
/// only the points its zoom draws. Days are independent: the first and last drawn point of a day
/// are level 0, so a gap across midnight keeps both its ends at every zoom, and a day that changes
/// is redone alone.
public enum DayDetail {
    /// The level a flagged point gets: above every zoom, so no map read draws it.
    public static let excludedLevel = DetailLevels.all + 1
    /// The level of a stored point not yet worked out (the column's default): outside the level
    /// index (`<= excludedLevel`), so an insert does not maintain it; a map read works out the
    /// pending days of its range before it reads.
    public static let pendingLevel = 99

    /// - Parameters:
    ///   - points: the day's points in (time, row) order.
    ///   - before: the last point before the day (for the speed rule), `nil` if none.
    ///   - after: the first point after the day, `nil` if none.
    public static func compute(
        _ points: [DetailInput], before: DetailInput?, after: DetailInput?, rules: CleanupRules,
        maximumGap: Duration
    ) -> [DetailOutput] {
        var flags = points.map {
            rules.pointFlag(latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy)
        }
        if let limit = rules.maximumSpeed {
            flagSpeedJumps(points, before: before, after: after, limit: limit, flags: &flags)
        }
        var levels = [Int](repeating: excludedLevel, count: points.count)
        var segment: [Int] = []
        var starts = [Bool](repeating: false, count: points.count)
        var previousTime = before?.time
        func finish() {
            let drawn = segment.map { index in
                SampleValues(
                    time: points[index].time, latitude: points[index].latitude, longitude: points[index].longitude)
            }
            for (index, level) in zip(segment, DetailLevels.levels(of: drawn)) { levels[index] = level }
            segment.removeAll(keepingCapacity: true)
        }
        for index in points.indices where flags[index] == .none {
            if previousTime.map({ points[index].time - $0 > maximumGap }) ?? true {
                finish()
                starts[index] = true
            }
            previousTime = points[index].time
            segment.append(index)
        }
        finish()
        return points.indices.map {
            DetailOutput(row: points[$0].row, level: levels[$0], flag: flags[$0], startsSegment: starts[$0])
        }
    }

    /// Flags each point reached from the previous kept point and left to the next one faster than
    /// `limit` while those two are within `limit` of each other: a lone outlier that jumps away and
    /// back. A real fast journey (both neighbours far apart too) is not flagged.
    static func flagSpeedJumps(
        _ points: [DetailInput], before: DetailInput?, after: DetailInput?, limit: Double, flags: inout [SampleFlag]
    ) {
        var previous = before.flatMap { isPlausible($0) ? $0 : nil }
        for index in points.indices where flags[index] == .none {
            let next = points[(index + 1)...].indices.first { flags[$0] == .none }.map { points[$0] } ?? after
            if let previous, let next,
                speed(previous, points[index]) > limit, speed(points[index], next) > limit,
                speed(previous, next) <= limit
            {
                flags[index] = .speedJump
                continue
            }
            previous = points[index]
        }
    }

    /// Neighbours across the day's edges are used only when they are not at (0, 0).
    private static func isPlausible(_ point: DetailInput) -> Bool {
        !(point.latitude == 0 && point.longitude == 0)
    }

    /// Metres per second from `a` to `b`, over at least one second.
    static func speed(_ a: DetailInput, _ b: DetailInput) -> Double {
        let metres = Haversine.distance(
            latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        let seconds = max(1, abs((b.time - a.time).seconds))
        return metres / seconds
    }
}
