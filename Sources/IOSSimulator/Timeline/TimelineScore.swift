package import BackgroundCore
import LocationLog
package import TrackGeometry

/// How a detected timeline compares with the truth: stays matched one to one (overlapping in
/// time, centre within the stay radius of the true place), the error of their edges, and the
/// distance error of the trips between matched stays.
package struct TimelineScore: Hashable, Sendable {
    package var staysExpected = 0
    package var staysFound = 0
    /// Detected stays matched to a true one (one to one).
    package var staysMatched = 0
    /// |detected start - true arrival| in seconds, for matched stays not cut by the scenario's start.
    package var startErrors: [Double] = []
    /// |detected end - true departure| in seconds, for matched stays not cut by the scenario's end.
    package var endErrors: [Double] = []
    /// |detected - true| / true, for true trips whose two stays were matched and that no gap cut.
    package var tripDistanceErrors: [Double] = []
    /// True trips between matched stays that a gap interrupts (shown as a gap, not measured).
    package var tripsAcrossGaps = 0
    /// Stay edges next to a gap (the phone was silent: the true arrival or departure is not in
    /// the data), not judged for their error.
    package var edgesAtGaps = 0
    package var gapsFound = 0
    package var inferredStays = 0
    /// Every judgement behind the counts, for looking at a miss sample by sample.
    package var findings: [Finding] = []

    /// One judgement: what the truth had and what was detected.
    package enum Finding: Hashable, Sendable {
        /// A detected stay that matched no true one.
        case falseStay(Stay)
        /// A true stay that no detected stay matched.
        case missedStay(TimelineTruth.Place)
        /// A judged stay edge (`isStart`: the arrival): the true instant and the detected one.
        case edge(isStart: Bool, truth: Instant, detected: Instant)
        /// A judged trip: the true journey and the detected metres.
        case trip(TimelineTruth.Journey, detected: Double)
    }

    package init() {}

    package var precision: Double { staysFound == 0 ? 1 : Double(staysMatched) / Double(staysFound) }
    package var recall: Double { staysExpected == 0 ? 1 : Double(staysMatched) / Double(staysExpected) }

    /// Adds another run's counts and errors (a table row over seeds).
    package mutating func merge(_ other: TimelineScore) {
        staysExpected += other.staysExpected
        staysFound += other.staysFound
        staysMatched += other.staysMatched
        startErrors += other.startErrors
        endErrors += other.endErrors
        tripDistanceErrors += other.tripDistanceErrors
        tripsAcrossGaps += other.tripsAcrossGaps
        edgesAtGaps += other.edgesAtGaps
        gapsFound += other.gapsFound
        inferredStays += other.inferredStays
        findings += other.findings
    }

    /// Scores `entries` (a whole timeline, closed) against `truth`; `radius` is the stay radius.
    package init(entries: [TimelineEntry], truth: TimelineTruth, radius: Double) {
        let positions = entries.indices.filter { if case .stay = entries[$0] { true } else { false } }
        let stays = positions.compactMap { if case .stay(let stay) = entries[$0] { stay } else { nil } }
        func isGap(_ index: Int) -> Bool {
            guard entries.indices.contains(index), case .gap = entries[index] else { return false }
            return true
        }
        staysExpected = truth.stays.count
        staysFound = stays.count
        gapsFound = entries.count { if case .gap = $0 { true } else { false } }
        inferredStays = stays.count { $0.inferred }
        var taken = Set<Int>()
        var matches: [Int: Stay] = [:]
        for (index, place) in truth.stays.enumerated() {
            let candidates = stays.indices.filter { candidate in
                let stay = stays[candidate]
                let centre = Coordinate(latitude: stay.latitude, longitude: stay.longitude)
                return !taken.contains(candidate) && stay.start <= place.departure && stay.end >= place.arrival
                    && centre.distance(to: place.place) <= radius
            }
            let best = candidates.max { overlap(stays[$0], place) < overlap(stays[$1], place) }
            guard let best else {
                findings.append(.missedStay(place))
                continue
            }
            taken.insert(best)
            matches[index] = stays[best]
            let gapBefore = isGap(positions[best] - 1)
            let gapAfter = isGap(positions[best] + 1)
            edgesAtGaps += (!place.cutAtStart && gapBefore ? 1 : 0) + (!place.cutAtEnd && gapAfter ? 1 : 0)
            if !place.cutAtStart, !gapBefore {
                startErrors.append(abs((stays[best].start - place.arrival).seconds))
                findings.append(.edge(isStart: true, truth: place.arrival, detected: stays[best].start))
            }
            if !place.cutAtEnd, !gapAfter {
                endErrors.append(abs((stays[best].end - place.departure).seconds))
                findings.append(.edge(isStart: false, truth: place.departure, detected: stays[best].end))
            }
        }
        staysMatched = matches.count
        findings += stays.indices.filter { !taken.contains($0) }.map { .falseStay(stays[$0]) }
        for (index, journey) in truth.trips.enumerated() {
            guard let left = matches[index], let right = matches[index + 1], journey.distance > 0 else { continue }
            let between = entries.filter { $0.start >= left.end && $0.end <= right.start }
            if between.contains(where: { if case .gap = $0 { true } else { false } }) {
                tripsAcrossGaps += 1
                continue
            }
            let detected = between.reduce(0.0) { total, entry in
                if case .trip(let trip) = entry { total + trip.distance } else { total }
            }
            tripDistanceErrors.append(abs(detected - journey.distance) / journey.distance)
            findings.append(.trip(journey, detected: detected))
        }
    }

    private func overlap(_ stay: Stay, _ place: TimelineTruth.Place) -> Int64 {
        min(stay.end, place.departure).milliseconds - max(stay.start, place.arrival).milliseconds
    }
}
