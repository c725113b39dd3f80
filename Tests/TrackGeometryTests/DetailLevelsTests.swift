import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackGeometry

@Suite("Detail levels: a track's points by the zoom that draws them (issue 25 item 1)")
struct DetailLevelsTests {
    /// A wandering walk with straight stretches, a loop and repeated points.
    static func walk(_ count: Int, seed: UInt64) -> [SampleValues] {
        var random = SeededRandom(seed: seed)
        var latitude = 48.85
        var longitude = 2.35
        return (0..<count).map { index in
            if index % 50 < 30 {
                latitude += random.uniform(-0.002...0.002)
                longitude += random.uniform(-0.002...0.002)
            } else if index % 7 != 0 {
                latitude += 0.0005
            }
            return SampleValues(
                time: Instant(milliseconds: Int64(index) * 120_000), latitude: latitude, longitude: longitude)
        }
    }

    @Test(arguments: [0, 1, 2, 3, 50, 720])
    func theEndsAreDrawnAtEveryZoomAndTheFinestLevelDrawsEveryPoint(count: Int) {
        let points = Self.walk(count, seed: UInt64(count) + 1)
        let levels = DetailLevels.levels(of: points)
        #expect(levels.count == points.count)
        if let first = levels.first, let last = levels.last {
            #expect(first == 0 && last == 0)
        }
        #expect(levels.allSatisfy { (0...DetailLevels.all).contains($0) })
    }

    /// The points a zoom draws are exactly Douglas–Peucker's at that zoom's tolerance, for every
    /// zoom: so they nest (a point drawn at one zoom is drawn at every finer one).
    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func eachZoomDrawsWhatDouglasPeuckerKeepsAtItsTolerance(seed: UInt64) {
        let points = Self.walk(720, seed: seed)
        let levels = DetailLevels.levels(of: points)
        var previous = -1
        for zoom in 0..<DetailLevels.all {
            let drawn = zip(points, levels).filter { $0.1 <= zoom }.map(\.0)
            let expected = Simplification.douglasPeucker(points, tolerance: DetailLevels.tolerance(zoom: zoom))
            #expect(drawn == expected, "zoom \(zoom)")
            #expect(drawn.count >= previous)
            previous = drawn.count
        }
        #expect(zip(points, levels).filter { $0.1 <= DetailLevels.all }.count == points.count)
        // A year of this walk at a city zoom is a small fraction of the points.
        #expect(levels.filter { $0 <= 8 }.count < points.count / 4)
    }

    @Test func repeatedAndCollinearPointsGetTheFinestLevel() {
        let still = (0..<10).map {
            SampleValues(time: Instant(milliseconds: Int64($0) * 1000), latitude: 10, longitude: 20)
        }
        #expect(DetailLevels.levels(of: still) == [0] + Array(repeating: DetailLevels.all, count: 8) + [0])
        let line = (0..<10).map {
            SampleValues(time: Instant(milliseconds: Int64($0) * 1000), latitude: 10, longitude: 20 + Double($0) * 0.01)
        }
        #expect(DetailLevels.levels(of: line).dropFirst().dropLast().allSatisfy { $0 == DetailLevels.all })
    }

    @Test func levelsFollowTheTolerances() {
        #expect(DetailLevels.level(importance: .infinity) == 0)
        #expect(DetailLevels.level(importance: 200_000) == 0)
        #expect(DetailLevels.level(importance: 0) == DetailLevels.all)
        #expect(DetailLevels.level(importance: .nan) == 0)
        for zoom in 1..<DetailLevels.all {
            // Just above a zoom's tolerance: drawn from that zoom on, not at the coarser one.
            #expect(DetailLevels.level(importance: DetailLevels.tolerance(zoom: zoom) * 1.01) == zoom)
        }
        #expect(DetailLevels.tolerance(zoom: -5) == DetailLevels.tolerance(zoom: 0))
        #expect(DetailLevels.tolerance(zoom: 99) == DetailLevels.tolerance(zoom: DetailLevels.all))
    }

    /// A long segment (a day sampled every few seconds) is worked out without a deep call stack.
    @Test func aLongSegmentNeedsNoDeepStack() {
        let points = (0..<50_000).map {
            SampleValues(
                time: Instant(milliseconds: Int64($0) * 1000), latitude: 45 + sin(Double($0) / 300) * 0.01,
                longitude: Double($0) * 1e-5)
        }
        let levels = DetailLevels.levels(of: points)
        #expect(levels.count == points.count && levels.first == 0 && levels.last == 0)
    }
}
