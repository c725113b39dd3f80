import BackgroundCore
import Foundation

/// Points that may be (or already are) a stay: their running mean, weighted by accuracy, is the
/// centre.
struct StayCluster: Hashable, Sendable, Codable {
    /// Kept only while the cluster is a candidate (shorter than a stay), so leading points can
    /// leave it; an open stay keeps just its sums.
    var points: [SampleValues]
    var first: SampleValues
    var last: SampleValues
    /// The points' coordinates times their weights (``weight(of:)``), and the weights' sum.
    var sumLatitude: Double
    var sumLongitude: Double
    var sumWeight: Double
    var count: Int
    var radius: Double
    var inferred: Bool
    /// An open stay's newest points that measured the person moving, oldest first (at most
    /// ``departingMemory``). Inside the radius they may be the person pacing, or already leaving:
    /// if the next point is out of reach, they were leaving, and they begin the trip.
    var departing: [SampleValues] = []
    /// The newest point before `departing`: where the stay ends if the person left.
    var settled: SampleValues
    /// An open stay's place: its centre when it became a stay, fixed from then on. A sample
    /// belongs to the stay when it is within the radius of this place, not of the running centre,
    /// which a slow walk would drag along with it (issue 38: one stroll made four stays).
    var anchorLatitude: Double?
    var anchorLongitude: Double?

    /// The most trailing moving points a stay gives up to the trip that leaves it: the first
    /// minutes of a walk (2-3 minute sampling and a departure fix put one or two inside 100 m).
    static let departingMemory = 2

    init(_ point: SampleValues) {
        points = [point]
        first = point
        last = point
        settled = point
        let weight = Self.weight(of: point)
        sumLatitude = point.latitude * weight
        sumLongitude = point.longitude * weight
        sumWeight = weight
        count = 1
        radius = 0
        inferred = false
    }

    var latitude: Double { sumLatitude / sumWeight }
    var longitude: Double { sumLongitude / sumWeight }

    /// How much a point counts in the centre: inversely as its accuracy's square (a GPS fix at
    /// 8 m counts as about fifty Wi-Fi fixes at 60 m, each of which may be 30-60 m off), relative
    /// to a 10 m fix, at most four times that (a reported 1 m is not believed). A point without an
    /// accuracy counts as a 10 m one, so points alike count alike and the centre is their mean.
    static func weight(of point: SampleValues) -> Double {
        let accuracy = point.accuracy.map { max($0, 5) } ?? 10
        return 100 / (accuracy * accuracy)
    }

    /// Adds (`sign` 1) or takes away (-1) a point's share of the centre.
    private mutating func tally(_ point: SampleValues, sign: Double) {
        let weight = Self.weight(of: point) * sign
        sumLatitude += point.latitude * weight
        sumLongitude += point.longitude * weight
        sumWeight += weight
        count += sign > 0 ? 1 : -1
    }
    var duration: Duration { last.time - first.time }

    func distance(to point: SampleValues) -> Double { point.distance(latitude: latitude, longitude: longitude) }

    /// Fixes the stay's place where its centre is now (``anchorLatitude``).
    mutating func anchor() {
        anchorLatitude = latitude
        anchorLongitude = longitude
    }

    /// Whether `point` lies within `radius` of the place: an open stay's fixed place; for a
    /// candidate, both its running centre and its first sample (so the candidate's samples lie
    /// within the radius of one spot, not along a walk), the first sample's reach widened by the
    /// larger of the two accuracies (two Wi-Fi fixes of one room may be 100 m apart, and a
    /// significant-change fix announcing the arrival may be 150 m off).
    func holds(_ point: SampleValues, radius: Double) -> Bool {
        if let anchorLatitude, let anchorLongitude {
            return point.distance(latitude: anchorLatitude, longitude: anchorLongitude) <= radius
        }
        guard distance(to: point) <= radius else { return false }
        let slack = max(first.accuracy ?? 0, point.accuracy ?? 0)
        return first.distance(to: point) <= radius + slack
    }

    /// The distance from the centre to the farthest kept point: how far a candidate's samples
    /// spread.
    var spread: Double { farthest(of: points) }

    /// The distance from the centre to the farthest of `points` (0 for none): the radius after the
    /// centre moved.
    private func farthest(of points: some Sequence<SampleValues>) -> Double {
        points.reduce(0) { max($0, distance(to: $1)) }
    }

    mutating func append(_ point: SampleValues, keepingPoints: Bool) {
        if keepingPoints { points.append(point) }
        last = point
        settled = point
        departing = []
        tally(point, sign: 1)
        radius = max(radius, distance(to: point))
    }

    /// Appends a point to an open stay, remembering it among the departing points if it
    /// measured the person moving.
    mutating func appendToStay(_ point: SampleValues) {
        let (wasSettled, wasDeparting) = (settled, departing)
        append(point, keepingPoints: false)
        guard point.measuredMoving else { return }
        settled = wasSettled
        departing = wasDeparting + [point]
        if departing.count > Self.departingMemory { settled = departing.removeFirst() }
    }

    /// Takes the first `count` points (of a cluster that keeps its points and holds more) out of
    /// the centre and the radius; the cluster still starts at the first.
    mutating func leaveOutOfCentre(_ count: Int) {
        guard count > 0, count < points.count else { return }
        for point in points.prefix(count) { tally(point, sign: -1) }
        radius = farthest(of: points.dropFirst(count))
    }

    /// The stay as it was before its departing points, and those points (the trip's first).
    ///
    /// The stay ends when the person left: between its last sample at rest and the first moving
    /// one, estimated as the moving one's time less its distance from the centre at its speed
    /// (a departure fix 80 m out at 1.3 m/s: the person left 62 s before it).
    func leaving() -> (stay: StayCluster, departing: [SampleValues]) {
        var stay = self
        for point in departing { stay.tally(point, sign: -1) }
        stay.departing = []
        stay.last = settled
        if let moving = departing.first, let speed = moving.speed, speed > 0 {
            stay.last.time.milliseconds = stay.departure(
                seenBy: moving, at: speed, notBefore: settled.time.milliseconds)
        }
        return (stay, departing)
    }

    /// When the person left, dated by the first sample away (`moving`, at `speed` m/s): its
    /// distance from the centre before it, never before `floor` (the last time they were seen here).
    func departure(seenBy moving: SampleValues, at speed: Double, notBefore floor: Int64) -> Int64 {
        let walked = Int64(moving.distance(latitude: latitude, longitude: longitude) / speed * 1000)
        return min(max(moving.time.milliseconds - walked, floor), moving.time.milliseconds)
    }

    /// Removes and returns the oldest point (the cluster must keep its points and hold two or more).
    mutating func dropFirst() -> SampleValues {
        let head = points.removeFirst()
        tally(head, sign: -1)
        first = points[0]
        radius = farthest(of: points)
        return head
    }

    /// The centre as a point at `time`: where a trip leaving or reaching the stay is measured
    /// from, so a trip runs place to place (its samples inside the radius belong to the stay).
    func centre(at time: Int64) -> SampleValues {
        SampleValues(time: Instant(milliseconds: time), latitude: latitude, longitude: longitude)
    }

    var stay: Stay {
        Stay(
            start: first.time, end: last.time, latitude: latitude, longitude: longitude, radius: radius,
            sampleCount: count, inferred: inferred)
    }
}

extension StayCluster {
    /// Reads states persisted before `departing`, `settled` and `sumWeight` existed (none
    /// departing, settled at the last point, every point counted alike).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        points = try container.decode([SampleValues].self, forKey: .points)
        first = try container.decode(SampleValues.self, forKey: .first)
        last = try container.decode(SampleValues.self, forKey: .last)
        sumLatitude = try container.decode(Double.self, forKey: .sumLatitude)
        sumLongitude = try container.decode(Double.self, forKey: .sumLongitude)
        count = try container.decode(Int.self, forKey: .count)
        // Before the weights, every point counted 1: as a 10 m fix does now.
        sumWeight = try container.decodeIfPresent(Double.self, forKey: .sumWeight) ?? Double(count)
        radius = try container.decode(Double.self, forKey: .radius)
        inferred = try container.decode(Bool.self, forKey: .inferred)
        departing = try container.decodeIfPresent([SampleValues].self, forKey: .departing) ?? []
        settled = try container.decodeIfPresent(SampleValues.self, forKey: .settled) ?? last
        // A stay saved before places were fixed keeps the centre it had as its place.
        anchorLatitude = try container.decodeIfPresent(Double.self, forKey: .anchorLatitude)
        anchorLongitude = try container.decodeIfPresent(Double.self, forKey: .anchorLongitude)
        if points.isEmpty, anchorLatitude == nil { anchor() }
    }
}

/// A trip being measured: where it began, where it is now, how far it went.
struct OpenTrip: Hashable, Sendable, Codable {
    var first: SampleValues
    var last: SampleValues
    /// The sample before `last` (nil until the trip has two): a leg without speeds bends with it.
    var previous: SampleValues?
    var distance: Double = 0
    var count = 1
    /// Metres covered per mode (``TravelMode/allCases`` order), each leg by its own speed.
    var metresByMode: [Double] = [0, 0, 0, 0]

    init(_ point: SampleValues) {
        first = point
        last = point
    }

    mutating func append(_ point: SampleValues) {
        let metres = Self.leg(from: last, to: point, after: previous)
        distance += metres
        let seconds = Double(point.time.milliseconds - last.time.milliseconds) / 1000
        if seconds > 0, let index = TravelMode.allCases.firstIndex(of: TravelMode(meanSpeed: metres / seconds)),
            metresByMode.indices.contains(index)
        {
            metresByMode[index] += metres
        }
        previous = last
        last = point
        count += 1
    }

    /// Metres between two consecutive samples of a trip. The straight line cuts every corner
    /// between them (two minutes of walking is 170 m of path); when both ends measured a moving
    /// speed, the person moved the whole time, and the mean speed times the time is the path's
    /// length. Never less than the straight line. When the two speeds agree (within
    /// ``agreeingSpeeds``), that length is taken as it is, however short the straight line: an
    /// out-and-back walk that turns between two samples ends near where it began. When they
    /// disagree, one of them may be a bad reading, which must not invent a detour: at most twice
    /// the straight line plus 50 m.
    ///
    /// When neither end measured a moving speed and one lies within the other's accuracy circle,
    /// the two fixes cannot tell a move from their own error: the leg is nothing. A stop too
    /// short for a stay inside a trip (a shop, 8 minutes) is otherwise counted as the zigzag
    /// between its Wi-Fi fixes, 30-90 m each.
    ///
    /// Without two moving speeds (OwnTracks, imports, GPX files without `<speed>`), the path is
    /// taken as the circular arc through the sample before `from`, `from` and `to`: a person
    /// turning at `from` was already turning before it, and the arc's length over its chord is
    /// α / sin α, α the angle at the earlier sample between the other two (1 on a straight line;
    /// α at most ``widestBend``, 1.21: a turn back is no arc), where both legs are over four times
    /// the three fixes' worst accuracy (else the bend may be their error). On GeoLife's walks and rides, cut to
    /// 2-minute samples, the chord alone is a median 16 % short of the full-rate path
    /// (docs/timeline-evaluation.md).
    static func leg(from: SampleValues, to: SampleValues, after earlier: SampleValues? = nil) -> Double {
        let straight = from.distance(to: to)
        if !from.measuredMoving, !to.measuredMoving, straight <= max(from.accuracy ?? 0, to.accuracy ?? 0) { return 0 }
        guard let before = from.speed, let after = to.speed, before >= movingSpeed, after >= movingSpeed else {
            // The bend is a turn only where the fixes are sharp beside the legs: Wi-Fi fixes 30-60 m
            // off bend a short leg at random.
            // Bends no sample sees, only where neither sample measured a speed (a client
            // without speeds); a GPS fix beside a Wi-Fi one keeps the arc alone.
            let seconds = max(1, Double(to.time.milliseconds - from.time.milliseconds) / 1000)
            let wiggle = from.speed == nil && to.speed == nil ? detour(metresPerSecond: straight / seconds) : 1
            guard let earlier else { return straight * wiggle }
            let noise = max(earlier.accuracy ?? 0, from.accuracy ?? 0, to.accuracy ?? 0)
            guard straight > 4 * noise, earlier.distance(to: from) > 4 * noise else { return straight * wiggle }
            return straight * arcRatio(earlier, from, to) * wiggle
        }
        let travelled = (before + after) / 2 * Double(to.time.milliseconds - from.time.milliseconds) / 1000
        let agree = max(before, after) <= min(before, after) * agreeingSpeeds
        return agree ? max(straight, travelled) : min(max(straight, travelled), straight * 2 + 50)
    }

    /// The path's expected length over its chord between two samples without speeds, by the
    /// chord's speed: 1.15 at a standstill, falling linearly to 1 at 5 m/s. A walk between two
    /// samples follows pavements and corners the samples never see; a car between them follows a
    /// road that is nearly straight at that scale. Fitted on half of the GeoLife people and
    /// checked on the other half (docs/timeline-evaluation.md §Trips).
    static func detour(metresPerSecond speed: Double) -> Double {
        1 + 0.15 * max(0, 1 - speed / 5)
    }

    /// The widest angle (radians, 60°) ``leg(from:to:after:)`` bends a leg by.
    static let widestBend = Double.pi / 3

    /// α / sin α for the angle α at `a` between `b` and `c` (planar, on a local projection).
    static func arcRatio(_ a: SampleValues, _ b: SampleValues, _ c: SampleValues) -> Double {
        let scale = cos(a.latitude * .pi / 180)
        let (x1, y1) = ((b.longitude - a.longitude) * scale, b.latitude - a.latitude)
        let (x2, y2) = ((c.longitude - a.longitude) * scale, c.latitude - a.latitude)
        let lengths = (x1 * x1 + y1 * y1).squareRoot() * (x2 * x2 + y2 * y2).squareRoot()
        guard lengths > 0 else { return 1 }
        let angle = acos(max(-1, min(1, (x1 * x2 + y1 * y2) / lengths)))
        guard angle > 1e-6 else { return 1 }
        let bend = min(angle, widestBend)
        return bend / sin(bend)
    }

    /// Below this (m/s) a measured speed says the person was not moving.
    static let movingSpeed = 0.5
    /// Two moving speeds within this ratio of each other agree (a walk at 1.2 and 1.5 m/s does; a
    /// fix at 1.2 and one at 12 m/s, a reading off by ten, does not).
    static let agreeingSpeeds = 1.5

    /// The closed trip, or `nil` when it never left its first sample.
    var trip: Trip? {
        guard count >= 2, last.time.milliseconds > first.time.milliseconds else { return nil }
        let dominant = zip(TravelMode.allCases, metresByMode).max { $0.1 < $1.1 }
        return Trip(
            start: first.time, end: last.time, distance: distance, sampleCount: count, startLatitude: first.latitude,
            startLongitude: first.longitude, endLatitude: last.latitude, endLongitude: last.longitude,
            mode: (dominant?.1 ?? 0) > 0 ? dominant?.0 : nil)
    }
}

extension SampleValues {
    /// Whether the receiver measured the person moving (a speed of ``OpenTrip/movingSpeed`` or more).
    var measuredMoving: Bool { (speed ?? 0) >= OpenTrip.movingSpeed }
}
