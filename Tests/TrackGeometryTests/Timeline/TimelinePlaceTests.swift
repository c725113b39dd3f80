import BackgroundCore
import Foundation
import Testing

@testable import TrackGeometry

/// Stays that real people make (issue 38 item 2), each rule from a miss on GeoLife's traces cut
/// to 2-minute samples (docs/timeline-evaluation.md): a place that stays put, a place left
/// between two samples, and trips measured along a bend without speeds. GPS fixes, 10 m, no speed,
/// as an import or an OwnTracks client sends them.
@Suite struct TimelinePlaceTests {
    typealias Edge = TimelineEdgeTests

    /// A stroll at 0.25 m/s (30 m every 2 minutes) for 20 minutes stays within 100 m of its own
    /// running centre all along (the centre follows it) but is no place: no stay. One stroll on
    /// the real traces made four stays of radius 94-99 m this way.
    @Test func aSlowWalkIsNoStay() {
        let stroll = stride(from: Int64(0), through: 1200, by: 120).map { Edge.point($0, north: Double($0) / 4) }
        #expect(Edge.timeline(stroll).map(\.kind) == ["trip"])
    }

    /// Ten minutes at home, then a slow walk away: the stay's place is where it was when it became
    /// a stay, so the sample 110 m from it has left, although the running centre (dragged 15 m
    /// north by the walk's first samples) is within 100 m of it.
    @Test func aStaysPlaceStaysPutWhileTheWalkLeavesIt() throws {
        var points = Edge.staying(from: 0, minutes: 12)
        points += [Edge.point(720, north: 40), Edge.point(840, north: 80), Edge.point(960, north: 110)]
        points += [Edge.point(1080, north: 300), Edge.point(1200, north: 500)]
        let entries = Edge.timeline(points)
        #expect(entries.map(\.kind) == ["stay", "trip"])
        #expect(entries.first?.end == Instant(milliseconds: 840_000), "the stay ends at the last sample within 100 m")
    }

    /// Two samples at rest, then 12 minutes of silence (a logger indoors, or iOS pausing updates
    /// for a phone at rest), then a sample 400 m away: the person was there until the phone saw
    /// them gone, a stay inferred across the silence that ends at that sample, not a gap (on the
    /// real traces 12 of the stays missed were this). A silence over 15 minutes stays a gap, as
    /// does one after samples that measured the person walking off.
    @Test func aShortSilenceAtRestThatEndsAwayIsTheStayUntilThePersonIsSeenGone() throws {
        let arriving = [Edge.point(-240, north: -900), Edge.point(-120, north: -450)]
        let atRest = [Edge.point(0, north: 0), Edge.point(120, north: 5)]
        let away = [Edge.point(840, north: 400), Edge.point(960, north: 900)]
        let entries = Edge.timeline(arriving + atRest + away)
        #expect(entries.map(\.kind) == ["trip", "inferred-stay", "trip"])
        let stay = try #require(entries[1].stay)
        #expect(stay.start == Instant(milliseconds: 0) && stay.end == Instant(milliseconds: 840_000))
        #expect(entries[2].start == Instant(milliseconds: 840_000))
        #expect(abs((entries[2].trip?.distance ?? 0) - 900) < 90, "the trip runs from the place")
        // The first sample away walking at a measured 1.25 m/s, 400 m out: the person left 320 s
        // before it.
        let walkingAway = [Edge.point(840, north: 400, speed: 1.25), Edge.point(960, north: 550, speed: 1.25)]
        let dated = Edge.timeline(arriving + atRest + walkingAway)
        #expect(dated.map(\.kind) == ["trip", "inferred-stay", "trip"])
        #expect(abs((dated[1].end.milliseconds - 520_000)) < 5000, "\(dated[1].end)")
        // An open stay (an hour here) falls silent for 14 minutes: it lasts until the sample away.
        var hour = Edge.staying(from: 0, minutes: 60)
        hour += [Edge.point(3480 + 840, north: 400), Edge.point(3480 + 960, north: 900)]
        let long = Edge.timeline(hour)
        #expect(long.map(\.kind) == ["inferred-stay", "trip"])
        #expect(long.first?.end == Instant(milliseconds: 4_320_000))
        // 16 minutes of silence: no one knows; a gap.
        let late = [Edge.point(1080, north: 400), Edge.point(1200, north: 900)]
        #expect(Edge.timeline(arriving + atRest + late).map(\.kind) == ["trip", "gap", "trip"])
        // Walking (a measured 1.4 m/s) when the phone fell silent: the person was leaving; a gap.
        let walkingOff = [Edge.point(0, north: 0), Edge.point(120, north: 5, speed: 1.4)]
        #expect(Edge.timeline(arriving + walkingOff + away).map(\.kind) == ["trip", "gap", "trip"])
        // One sample before the silence: a stay only when it came at walking pace (a person
        // slowing to a stop), not at 4.5 m/s (a bicycle passing, seen by significant-change fixes).
        let walkedIn = [Edge.point(-240, north: -250), Edge.point(-120, north: -110), Edge.point(0, north: 0)]
        #expect(Edge.timeline(walkedIn + away).map(\.kind) == ["trip", "inferred-stay", "trip"])
        let rodePast = [Edge.point(-240, north: -1080), Edge.point(-120, north: -540), Edge.point(0, north: 0)]
        #expect(Edge.timeline(rodePast + away).map(\.kind) == ["trip", "gap", "trip"])
        // Off with inference: a gap.
        var builder = TimelineBuilder(settings: .sampling(every: .seconds(120)))
        builder.settings.infersStaysAcrossGaps = false
        var off: [TimelineEntry] = []
        for point in arriving + atRest + away { off += builder.add(point) }
        #expect((off + builder.finish()).map(\.kind) == ["trip", "gap", "trip"])
    }

    /// Samples at a place from 0 to 480 s (8 minutes of samples) and the next one, 2 minutes
    /// later, out of reach: the person was there from 0 until after 480 s, and the first sample
    /// that shows them gone is 10 minutes after the first: a stay, as the reference counts it.
    @Test func aPlaceLeftBetweenTwoSamplesCountsUntilTheFirstSampleOutOfReach() {
        var points = [Edge.point(-240, north: -900), Edge.point(-120, north: -450)]
        points += Edge.staying(from: 0, minutes: 10)
        points += [Edge.point(600, north: 500), Edge.point(720, north: 1000)]
        #expect(Edge.timeline(points).map(\.kind) == ["trip", "stay", "trip"])
        // One sample fewer at the place: the first sample out of reach is 8 minutes in, no stay.
        let short = points.filter { $0.time.milliseconds != 480_000 }.map { point -> SampleValues in
            var moved = point
            if moved.time.milliseconds >= 600_000 { moved.time.milliseconds -= 120_000 }
            return moved
        }
        #expect(Edge.timeline(short).map(\.kind) == ["trip"])
    }

    /// Walking in to a place, the logger falls silent indoors for an hour: the silence's two ends
    /// (the last sample before it and the first after) are within 100 m of each other, so it is a
    /// stay inferred across it, although the samples walking in are out of reach of the one after.
    @Test func aSilenceWhoseEndsAreTogetherIsAStayWhateverCameBeforeIt() throws {
        var points = [Edge.point(0, north: -400), Edge.point(120, north: -90), Edge.point(240, north: -10)]
        points += [Edge.point(3840, north: 60), Edge.point(3960, north: 50), Edge.point(4080, north: 600)]
        points += [Edge.point(4200, north: 1200)]
        let entries = Edge.timeline(points)
        #expect(entries.map(\.kind) == ["trip", "inferred-stay", "trip"])
        #expect(entries.first { $0.kind == "inferred-stay" }?.start == Instant(milliseconds: 240_000))
    }

    /// A leg without speeds bends with the sample before it: a right-angle turn at `from` is the
    /// arc through the three (α = 45°: 1.11 times the chord); a straight line stays the chord;
    /// a turn back is bent by at most 60° (1.21).
    @Test func aLegWithoutSpeedsIsTheArcThroughTheSampleBeforeIt() {
        let west = Edge.point(0, north: 0)
        let corner = Edge.point(120, north: 0).shifted(east: 200)
        let north = Edge.point(240, north: 200).shifted(east: 200)
        let chord = OpenTrip.leg(from: corner, to: north)
        let arc = OpenTrip.leg(from: corner, to: north, after: west.shifted(east: 0))
        #expect(abs(arc / chord - (Double.pi / 4) / sin(Double.pi / 4)) < 0.01, "\(arc / chord)")
        let straight = Edge.point(240, north: 0).shifted(east: 400)
        // Without speeds every leg also winds by OpenTrip.detour; on a straight line that alone.
        #expect(abs(OpenTrip.leg(from: corner, to: straight, after: west) / wound(corner, straight) - 1) < 1e-9)
        let back = Edge.point(240, north: 100)
        let bentBack = OpenTrip.leg(from: corner, to: back, after: west) / wound(corner, back)
        #expect(abs(bentBack - (Double.pi / 3) / sin(Double.pi / 3)) < 0.01, "\(bentBack)")
        // Fixes whose error could make the bend (Wi-Fi, 60 m, on 200 m legs) are not bent.
        var blurred = [west, corner, north]
        for index in blurred.indices { blurred[index].accuracy = 60 }
        #expect(
            OpenTrip.leg(from: blurred[1], to: blurred[2], after: blurred[0]) == wound(blurred[1], blurred[2]))
        // With two moving speeds the speeds measure the path, as before.
        let moving = OpenTrip.leg(
            from: Edge.point(120, north: 0, speed: 1.5), to: Edge.point(240, north: 150, speed: 1.5), after: west)
        #expect(abs(moving - 180) < 0.5)
    }
}

/// The straight line from `a` to `b` times the detour a leg without speeds is taken to wind by.
private func wound(_ a: SampleValues, _ b: SampleValues) -> Double {
    let metres = a.distance(to: b)
    return metres
        * OpenTrip.detour(metresPerSecond: metres / (Double(b.time.milliseconds - a.time.milliseconds) / 1000))
}

extension SampleValues {
    /// The point moved `east` metres.
    func shifted(east: Double) -> SampleValues {
        var moved = self
        moved.longitude += east / (111_320 * cos(latitude * .pi / 180))
        return moved
    }
}
