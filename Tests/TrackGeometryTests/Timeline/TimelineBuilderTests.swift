import BackgroundCore
import Foundation
import Testing

@testable import TrackGeometry

/// A day written as legs at 2-minute sampling: the builder's input, built by hand.
struct TimelineDay {
    static let origin = (latitude: 31.2304, longitude: 121.4737)
    var points: [SampleValues] = []
    var now: Int64 = 0
    var north = 0.0
    var east = 0.0

    func point(jitter: Double = 0) -> SampleValues {
        let latitude = Self.origin.latitude + (north + jitter) / 111_320
        let longitude = Self.origin.longitude + (east - jitter) / (111_320 * cos(Self.origin.latitude * .pi / 180))
        return SampleValues(time: Instant(milliseconds: now * 1000), latitude: latitude, longitude: longitude)
    }

    /// Samples every `every` seconds for `seconds` at the current place, with ±`jitter` m of noise.
    mutating func stay(_ seconds: Int64, every: Int64 = 120, jitter: Double = 8) {
        let end = now + seconds
        var flip = 1.0
        while now < end {
            points.append(point(jitter: jitter * flip))
            flip = -flip
            now += every
        }
    }

    /// Moves `metres` north at `speed` m/s, sampling every `every` seconds.
    mutating func walk(north metres: Double, speed: Double = 1.4, every: Int64 = 120) {
        let seconds = metres / speed
        let start = now
        let from = north
        while Double(now - start) < seconds {
            north = from + Double(now - start) * speed
            points.append(point())
            now += every
        }
        north = from + metres
    }

    /// No sample for `seconds`, then the position moved `metres` north.
    mutating func silence(_ seconds: Int64, movingNorth metres: Double = 0) {
        now += seconds
        north += metres
    }

    func timeline(_ settings: TimelineSettings = .sampling(every: .seconds(120))) -> [TimelineEntry] {
        var builder = TimelineBuilder(settings: settings)
        var entries: [TimelineEntry] = []
        for point in points { entries += builder.add(point) }
        return entries + builder.finish()
    }
}

extension TimelineEntry {
    var kind: String {
        switch self {
        case .stay(let stay): stay.inferred ? "inferred-stay" : "stay"
        case .trip: "trip"
        case .gap: "gap"
        }
    }
    var stay: Stay? { if case .stay(let stay) = self { stay } else { nil } }
    var trip: Trip? { if case .trip(let trip) = self { trip } else { nil } }
    var gap: TimelineGap? { if case .gap(let gap) = self { gap } else { nil } }
}

@Suite struct TimelineBuilderTests {
    @Test func stayWalkStayIsTwoStaysAndAWalkingTrip() throws {
        var day = TimelineDay()
        day.stay(3600)
        day.walk(north: 2000)
        day.stay(3600)
        let entries = day.timeline()
        #expect(entries.map(\.kind) == ["stay", "trip", "stay"])
        let first = try #require(entries[0].stay)
        let trip = try #require(entries[1].trip)
        let second = try #require(entries[2].stay)
        #expect(first.start == Instant(milliseconds: 0))
        #expect(first.end == trip.start)
        #expect(trip.end == second.start)
        // 30 samples at home and the walk's first, taken before it left.
        #expect(first.radius < 20 && first.sampleCount == 31)
        // Samples without speeds: the straight 2 km is taken to wind as a real walk does (OpenTrip.detour).
        let walked = 2000 * OpenTrip.detour(metresPerSecond: 1.4)
        #expect(walked > 2150 && abs(trip.distance - walked) < walked * 0.05, "distance \(trip.distance)")
        #expect(trip.mode == .walking)
        #expect(!first.inferred && !second.inferred)
    }

    @Test func aStopShorterThanTheMinimumIsNoStay() {
        var day = TimelineDay()
        day.stay(1800)
        day.walk(north: 1000)
        day.stay(360)  // six minutes at a kiosk
        day.walk(north: 1000)
        day.stay(1800)
        #expect(day.timeline().map(\.kind) == ["stay", "trip", "stay"])
    }

    @Test func aGapWithTheSamePositionAtBothEndsIsAnInferredStay() throws {
        var day = TimelineDay()
        day.walk(north: 500)
        day.stay(240)  // arrives, then the phone is silent all night
        day.silence(8 * 3600)
        day.stay(600)
        let entries = day.timeline()
        #expect(entries.map(\.kind) == ["trip", "inferred-stay"])
        let stay = try #require(entries[1].stay)
        #expect(stay.duration > .seconds(8 * 3600))
    }

    @Test func anUnexplainedGapIsNeverAStayWhenInferenceIsOff() {
        var day = TimelineDay()
        day.stay(1800)
        day.silence(3 * 3600)
        day.stay(1800)
        var settings = TimelineSettings.sampling(every: .seconds(120))
        settings.infersStaysAcrossGaps = false
        let entries = day.timeline(settings)
        #expect(entries.map(\.kind) == ["stay", "gap", "stay"])
        #expect(entries[1].gap?.explained == false)
        #expect(entries[1].gap?.reasons == [])
    }

    @Test func aGapWithDifferentEndsIsAGapNeverATrip() throws {
        var day = TimelineDay()
        day.stay(1800)
        day.silence(2 * 3600, movingNorth: 900_000)  // a flight with the phone off
        day.stay(1800)
        let entries = day.timeline()
        #expect(entries.map(\.kind) == ["stay", "gap", "stay"])
        let gap = try #require(entries[1].gap)
        #expect(gap.start == entries[0].end && gap.end == entries[2].start)
    }

    @Test func aGapInTheMiddleOfATripEndsTheTripAndStartsAnother() {
        var day = TimelineDay()
        day.stay(1800)
        day.walk(north: 1000)
        day.silence(1800, movingNorth: 3000)
        day.walk(north: 1000)
        day.stay(1800)
        #expect(day.timeline().map(\.kind) == ["stay", "trip", "gap", "trip", "stay"])
    }

    @Test func theGapThresholdIsTunableAndNeverAFixed180Seconds() {
        // Sampling every 3 minutes: with the default 4 × 2 min threshold, no gap anywhere.
        var day = TimelineDay()
        day.stay(3600, every: 180)
        day.walk(north: 3000, every: 180)
        day.stay(3600, every: 180)
        #expect(day.timeline().map(\.kind) == ["stay", "trip", "stay"])
        var tight = TimelineSettings.sampling(every: .seconds(120))
        tight.gapThreshold = .seconds(150)
        tight.infersStaysAcrossGaps = false
        #expect(day.timeline(tight).contains { $0.kind == "gap" })
    }

    @Test func inaccurateSamplesAreIgnoredButKeepTheGapClosed() {
        var day = TimelineDay()
        day.stay(1800)
        var points = day.points
        let last = day.now
        // Cell fixes a kilometre off, every 2 minutes for 30 minutes: no stay breaks, no gap.
        for index in 0..<15 {
            points.append(
                SampleValues(
                    time: Instant(milliseconds: (last + Int64(index) * 120) * 1000), latitude: 31.24, longitude: 121.48,
                    accuracy: 1200))
        }
        day.points = points
        day.now = last + 1800
        day.stay(1800)
        var settings = TimelineSettings.sampling(every: .seconds(120))
        settings.infersStaysAcrossGaps = false
        let entries = day.timeline(settings)
        #expect(entries.map(\.kind) == ["stay"])
    }

    @Test func lateAndDuplicateSamplesAreIgnored() {
        var day = TimelineDay()
        day.stay(1800)
        day.walk(north: 1000)
        day.stay(1800)
        var builder = TimelineBuilder(settings: .sampling(every: .seconds(120)))
        var entries: [TimelineEntry] = []
        for point in day.points {
            entries += builder.add(point)
            entries += builder.add(point)
            entries += builder.add(SampleValues(time: Instant(milliseconds: 0), latitude: 0, longitude: 0))
        }
        entries += builder.finish()
        #expect(entries == day.timeline())
    }

    @Test func aResumedBuilderGivesTheSameTimeline() throws {
        var day = TimelineDay()
        day.stay(3600)
        day.walk(north: 2000)
        day.silence(3600, movingNorth: 10_000)
        day.stay(3600)
        let settings = TimelineSettings.sampling(every: .seconds(120))
        for cut in stride(from: 1, to: day.points.count, by: 7) {
            var builder = TimelineBuilder(settings: settings)
            var entries: [TimelineEntry] = []
            for point in day.points[..<cut] { entries += builder.add(point) }
            let saved = try JSONEncoder().encode(builder)
            var resumed = try JSONDecoder().decode(TimelineBuilder.self, from: saved)
            resumed.settings = settings
            for point in day.points[cut...] { entries += resumed.add(point) }
            entries += resumed.finish()
            #expect(entries == day.timeline(), "cut at \(cut)")
        }
    }

    @Test func provisionalShowsTheOpenStayWithoutClosingIt() {
        var day = TimelineDay()
        day.stay(1800)
        var builder = TimelineBuilder(settings: .sampling(every: .seconds(120)))
        for point in day.points { #expect(builder.add(point).isEmpty) }
        #expect(builder.provisional.map(\.kind) == ["stay"])
        #expect(builder.openSince == Instant(milliseconds: 0))
        #expect(builder.finish().map(\.kind) == ["stay"])
        #expect(builder.provisional.isEmpty)
    }

    /// A leg between two samples that both measured a moving speed: the speeds' mean times the
    /// time when they agree, even across a turn that brought the person back near the first
    /// sample; capped near the straight line when one of them is far off the other.
    @Test func aLegIsSpeedTimesTimeWhenTheSpeedsAgreeAndCappedWhenTheyDoNot() {
        let start = Instant(milliseconds: 1_732_240_000_000)
        func point(_ seconds: Int64, north metres: Double, speed: Double?) -> SampleValues {
            SampleValues(
                time: start + .seconds(seconds), latitude: 48.85 + metres / 111_320, longitude: 2.35, accuracy: 5,
                speed: speed)
        }
        // Out and back: 66 m out at 1.2 m/s, then back past the start; 120 s walked = 144 m, 11 m apart.
        let out = point(0, north: 66, speed: 1.2)
        let back = point(120, north: 55, speed: 1.2)
        #expect(abs(OpenTrip.leg(from: out, to: back) - 144) < 0.5)
        // A reading ten times the other: no detour invented, at most twice the line plus 50 m.
        let glitch = point(120, north: 55, speed: 12)
        let capped = OpenTrip.leg(from: out, to: glitch)
        #expect(capped <= 2 * 11.1 + 50 + 0.5 && capped >= 11)
        // A speed at one end only: the straight line; at neither, the line times the detour.
        #expect(abs(OpenTrip.leg(from: out, to: point(120, north: 55, speed: nil)) - 11.1) < 0.5)
        let unmeasured = OpenTrip.leg(from: point(0, north: 66, speed: nil), to: point(120, north: 55, speed: nil))
        #expect(abs(unmeasured - 11.1 * OpenTrip.detour(metresPerSecond: 11.1 / 120)) < 0.5)
        // Agreeing speeds never shorten a leg below its straight line.
        #expect(abs(OpenTrip.leg(from: out, to: point(10, north: 366, speed: 1.2)) - 300) < 1)
    }

    @Test func modeFollowsMeanSpeed() {
        #expect(TravelMode(meanSpeed: 0.2) == .still)
        #expect(TravelMode(meanSpeed: 1.4) == .walking)
        #expect(TravelMode(meanSpeed: 4.5) == .cycling)
        #expect(TravelMode(meanSpeed: 11) == .vehicle)
        var day = TimelineDay()
        day.stay(1800)
        day.walk(north: 20_000, speed: 15)
        day.stay(1800)
        #expect(day.timeline().compactMap(\.trip).map(\.mode) == [.vehicle])
    }

    @Test func aWalkToATrainAndTheRideIsAVehicleTrip() {
        // 1 km on foot, then 10 km at 11 m/s: the mean (4.9 m/s) says cycling, the distance says vehicle.
        var day = TimelineDay()
        day.stay(1800)
        day.walk(north: 1000, speed: 1.4, every: 60)
        day.walk(north: 10_000, speed: 11, every: 60)
        day.stay(1800)
        let trip = day.timeline().compactMap(\.trip).first
        #expect(trip.map { $0.meanSpeed > 2.5 && $0.meanSpeed < 7 } == true)
        #expect(trip?.mode == .vehicle)
    }
}
