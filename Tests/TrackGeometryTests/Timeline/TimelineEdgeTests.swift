import BackgroundCore
import Foundation
import Testing
import TrackGeometry

/// Where a stay begins and ends (issue 24 item 2) when a coarse fix comes in between: the week's
/// worst late stay start in the evaluation (a significant-change fix 117 m off, 180 m accurate,
/// pulled the arrival's candidate apart and started the stay 4.5 minutes late).
@Suite struct TimelineEdgeTests {
    static let origin = (latitude: 31.2304, longitude: 121.4737)

    /// A sample `north` metres north of the origin at `seconds`, with a measured `speed` or none.
    static func point(
        _ seconds: Int64, north: Double, speed: Double? = nil, accuracy: Double = 10
    ) -> SampleValues {
        SampleValues(
            time: Instant(milliseconds: seconds * 1000), latitude: origin.latitude + north / 111_320,
            longitude: origin.longitude, accuracy: accuracy, speed: speed)
    }

    static func timeline(_ points: [SampleValues]) -> [TimelineEntry] {
        var builder = TimelineBuilder(settings: .sampling(every: .seconds(120)))
        var entries: [TimelineEntry] = []
        for point in points { entries += builder.add(point) }
        return entries + builder.finish()
    }

    /// Samples every 2 minutes from `start` for `minutes` at `north`.
    static func staying(from start: Int64, minutes: Int64, north: Double = 0, speed: Double? = nil) -> [SampleValues] {
        stride(from: start, to: start + minutes * 60, by: 120).map { point($0, north: north, speed: speed) }
    }

    @Test func aCoarseFixThatMayStillBeHereNeitherSplitsAStayNorDelaysItsStart() throws {
        // A drive arrives at 1890 s; a significant-change fix (180 m accurate, 120 m off) comes
        // at 2100 s, between the first samples at rest, and another in the middle of the stay.
        var points = Self.staying(from: 0, minutes: 30)
        points += [Self.point(1800, north: 3000, speed: 25), Self.point(1920, north: 5000, speed: 0)]
        points += [Self.point(2040, north: 5000, speed: 0), Self.point(2100, north: 5120, accuracy: 180)]
        points += Self.staying(from: 2160, minutes: 30, north: 5000, speed: 0)
        points.append(Self.point(3900, north: 4880, accuracy: 150))
        points += Self.staying(from: 3960, minutes: 30, north: 5000, speed: 0)
        let entries = Self.timeline(points)
        #expect(entries.map(\.kind) == ["stay", "trip", "stay"])
        #expect(entries.last?.stay?.start == Instant(milliseconds: 1_920_000))
        // A coarse fix that cannot be here is movement as before.
        var away = Self.staying(from: 0, minutes: 30)
        away += [Self.point(1800, north: 900, accuracy: 180)]
        away += Self.staying(from: 1920, minutes: 30, north: 1800, speed: 0)
        #expect(Self.timeline(away).map(\.kind) == ["stay", "trip", "stay"])
    }
}
