package import BackgroundCore

/// Where the simulated person really stayed and how far they really went: the scenario's own
/// movement, against which a detected timeline is judged.
package struct TimelineTruth: Sendable {
    package struct Place: Hashable, Sendable {
        package var arrival: Instant
        package var departure: Instant
        package var place: Coordinate
        /// Whether the scenario's start or end cuts the stay (its edge there is no real arrival
        /// or departure, so it is not judged).
        package var cutAtStart: Bool
        package var cutAtEnd: Bool

        package init(arrival: Instant, departure: Instant, place: Coordinate, cutAtStart: Bool, cutAtEnd: Bool) {
            self.arrival = arrival
            self.departure = departure
            self.place = place
            self.cutAtStart = cutAtStart
            self.cutAtEnd = cutAtEnd
        }
    }

    package struct Journey: Hashable, Sendable {
        package var departure: Instant
        package var arrival: Instant
        /// Metres along the true path.
        package var distance: Double

        package init(departure: Instant, arrival: Instant, distance: Double) {
            self.departure = departure
            self.arrival = arrival
            self.distance = distance
        }
    }

    package var stays: [Place]
    /// The movement between consecutive stays.
    package var trips: [Journey]

    package init(stays: [Place], trips: [Journey]) {
        self.stays = stays
        self.trips = trips
    }
}

extension MovementTrack {
    /// The true stays of at least `minimum` between `from` and `to`, and the trips between them.
    package func truth(from: Instant, to: Instant, minimumStay minimum: Duration) -> TimelineTruth {
        let stays = self.stays(atLeast: .zero).compactMap { stay -> TimelineTruth.Place? in
            let arrival = max(stay.arrival, from)
            let departure = min(stay.departure, to)
            guard departure - arrival >= minimum else { return nil }
            return .init(
                arrival: arrival, departure: departure, place: stay.place, cutAtStart: stay.arrival <= from,
                cutAtEnd: stay.departure >= to)
        }
        let trips = zip(stays, stays.dropFirst()).map { left, right in
            TimelineTruth.Journey(
                departure: left.departure, arrival: right.arrival,
                distance: pathLength(from: left.departure, to: right.arrival))
        }
        return TimelineTruth(stays: stays, trips: trips)
    }

    /// Metres travelled between two instants along the track's segments.
    func pathLength(from: Instant, to: Instant) -> Double {
        segments.reduce(0) { total, segment in
            guard !segment.isStay, segment.end > from, segment.start < to else { return total }
            let span = (segment.end - segment.start).seconds
            guard span > 0 else { return total }
            let covered = (min(segment.end, to) - max(segment.start, from)).seconds / span
            return total + segment.from.distance(to: segment.to) * covered
        }
    }
}
