import BackgroundCore
import Foundation
import Testing

@testable import LocationLog

/// A stop too short for a stay and an arrival announced by a coarse fix (issue 24 item 2): the
/// week's false stay (Tuesday's 8-minute shop stop), its walk measured 9 % long from the stop's
/// Wi-Fi zigzag, and Friday's arrival at the airport started 146 s late behind a
/// significant-change fix (BENCHMARKS.md, 2026-11-27: the week sample by sample).
@Suite struct TimelineStopTests {
    typealias Edge = TimelineEdgeTests

    @Test func aStopWalkedIntoAndOutOfInsideTheRadiusIsNoStay() {
        // Walking north at 1.3 m/s, at rest at 1000 m until `leaving`; the samples walking in
        // (78 m short) and out (78 m past) are inside the 100 m radius.
        func stop(leaving: Int64) -> [TimelinePoint] {
            var points = stride(from: Int64(0), through: 600, by: 120).map {
                Edge.point($0, north: Double($0) * 1.3, speed: 1.3)
            }
            points += [Edge.point(720, north: 922, speed: 1.3)]
            points += stride(from: Int64(840), to: leaving, by: 120).map { Edge.point($0, north: 1000, speed: 0) }
            return points + [
                Edge.point(leaving, north: 1078, speed: 1.3), Edge.point(leaving + 120, north: 1234, speed: 1.3),
            ]
        }
        // 8 minutes at rest: the samples in and out are 10 minutes apart, but no stay.
        #expect(Edge.timeline(stop(leaving: 1320)).map(\.kind) == ["trip"])
        // At rest for 10 minutes: a stay from its first sample, the one walking in.
        let staying = Edge.timeline(stop(leaving: 1440))
        #expect(staying.map(\.kind) == ["trip", "stay", "trip"])
        #expect(staying.first { $0.kind == "stay" }?.start == Instant(milliseconds: 720_000))
    }

    /// Every sample reports a walking speed at one place (pacing, or a phone reporting speed at
    /// rest): a moving sample defers the stay by one sample, not for ever, so the candidate does
    /// not keep every sample (single-point load at one spot with `vel` set made it grow without
    /// bound, and the server's timeline cost a core).
    @Test func samplesThatAllReportASpeedAtOnePlaceStillMakeAStay() {
        let pacing = stride(from: Int64(0), through: 3600, by: 120).map {
            Edge.point($0, north: $0 % 240 == 0 ? 0 : 30, speed: 1.4)
        }
        let entries = Edge.timeline(pacing)
        #expect(entries.map(\.kind) == ["stay"])
        #expect(entries.first?.start == Instant(milliseconds: 0))
        var builder = TimelineBuilder(settings: .sampling(every: .seconds(120)))
        for point in pacing { _ = builder.add(point) }
        #expect(builder.provisional.map(\.kind) == ["stay"], "an open stay, not a candidate after an hour")
    }

    @Test func fixesAtRestThatAgreeWithinTheirAccuracyAddNoDistance() {
        let walking = Edge.point(0, north: 0, speed: 1.3)
        let wifi = Edge.point(120, north: 60, accuracy: 80)
        let wifiAgain = Edge.point(240, north: -10, accuracy: 70)
        let atRest = Edge.point(360, north: 5, speed: 0)
        #expect(OpenTrip.leg(from: wifi, to: wifiAgain) == 0)
        #expect(OpenTrip.leg(from: wifiAgain, to: atRest) == 0)
        // A leg from or to a fix that measured a speed, or beyond both accuracies, is measured.
        #expect(abs(OpenTrip.leg(from: walking, to: wifi) - 60) < 0.5)
        #expect(abs(OpenTrip.leg(from: wifi, to: Edge.point(360, north: 160, accuracy: 80)) - 100) < 0.5)
    }

    @Test func anAccurateFixAtRestJoinsTheCoarseFixThatAnnouncedTheArrival() throws {
        // A drive at 20 m/s leaves at 1286 s and arrives 5000 m north at 1536 s; a
        // significant-change fix (178 m accurate, 120 m off) at 1560 s, then accurate fixes at
        // rest, the first 120 m from it.
        var points = Edge.staying(from: 0, minutes: 22)
        points += [Edge.point(1320, north: 680, speed: 20), Edge.point(1440, north: 3080, speed: 20)]
        points += [Edge.point(1560, north: 5120, accuracy: 178)]
        points += Edge.staying(from: 1680, minutes: 30, north: 5000, speed: 0)
        let entries = Edge.timeline(points)
        #expect(entries.map(\.kind) == ["stay", "trip", "stay"])
        #expect(entries.last?.stay?.start == Instant(milliseconds: 1_560_000))
    }

    /// Home for 30 minutes (fixes without speed), then a walk that leaves round a corner: 80 m
    /// east, then north at 1.3 m/s, 500 m in all. The departure fix 65 s in (84 m walked) is
    /// inside the stay's 100 m radius and measured the person moving: it begins the trip, which
    /// is no longer the straight line from the centre to the first sample out of reach (seed 19's
    /// Monday walk was 6.3 % short that way: BENCHMARKS.md, 2026-11-28).
    static func walkRoundACorner() -> [TimelinePoint] {
        func point(_ seconds: Int64, east: Double, north: Double, speed: Double?) -> TimelinePoint {
            let metresPerDegreeEast = 111_320 * cos(Edge.origin.latitude * .pi / 180)
            return TimelinePoint(
                time: Instant(milliseconds: seconds * 1000), latitude: Edge.origin.latitude + north / 111_320,
                longitude: Edge.origin.longitude + east / metresPerDegreeEast, accuracy: 10, speed: speed)
        }
        var points = stride(from: Int64(0), through: 1800, by: 120).map { point($0, east: 0, north: 0, speed: nil) }
        points.append(point(1865, east: 80, north: 4.5, speed: 1.3))
        points += stride(from: Int64(1920), through: 2160, by: 120).map {
            point($0, east: 80, north: Double($0 - 1800) * 1.3 - 80, speed: 1.3)
        }
        points += stride(from: Int64(2280), through: 4080, by: 120).map { point($0, east: 80, north: 420, speed: 0) }
        return points
    }

    @Test func theStaysLastMovingSamplesBeginTheTripThatLeavesIt() throws {
        let entries = Edge.timeline(Self.walkRoundACorner())
        #expect(entries.map(\.kind) == ["stay", "trip", "stay"])
        let home = try #require(entries.first?.stay)
        let walk = try #require(entries.dropFirst().first?.trip)
        #expect(home.end == Instant(milliseconds: 1_800_000), "the stay ends at its last sample at rest")
        #expect(walk.start == home.end)
        // 491 m: the arrival's centre takes in the last sample walking in (-9 m). Without the
        // departing samples the trip was the 107 m line from the centre to 1920 s's sample: 446 m.
        #expect(abs(walk.distance - 500) < 500 * 0.03, "distance \(walk.distance)")
        #expect(home.sampleCount == 16, "the departure fix left the stay")
    }

    /// A builder persisted before stays remembered their departing samples resumes: the missing
    /// fields read as "none departing, settled at the last sample".
    @Test func aStatePersistedBeforeDepartingSamplesResumes() throws {
        let points = Self.walkRoundACorner()
        var builder = TimelineBuilder(settings: .sampling(every: .seconds(120)))
        var entries: [TimelineEntry] = []
        for point in points.prefix(10) { entries += builder.add(point) }
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "departing" && $0.key != "settled" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let saved = try JSONSerialization.jsonObject(with: JSONEncoder().encode(builder))
        let old = try JSONSerialization.data(withJSONObject: strip(saved))
        #expect(!String(decoding: old, as: UTF8.self).contains("settled"))
        var resumed = try JSONDecoder().decode(TimelineBuilder.self, from: old)
        resumed.settings = .sampling(every: .seconds(120))
        for point in points.dropFirst(10) { entries += resumed.add(point) }
        entries += resumed.finish()
        #expect(entries == Edge.timeline(points))
    }
}
