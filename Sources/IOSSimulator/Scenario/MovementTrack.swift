package import BackgroundCore

/// Where the simulated user is at every moment: stays at places, moves between them along
/// waypoints at a speed. Built from legs; queries are a binary search over precomputed segments.
package struct MovementTrack: Sendable {
    package enum Leg: Sendable {
        /// Stay at the current place until `until` seconds after the track's start.
        case stay(until: Double)
        /// Move through `waypoints` (the last is the destination) at `speed` m/s.
        case move(through: [Coordinate], speed: Double)
        /// Ride underground from station to station (the last is the destination) at `speed`
        /// m/s: no GPS there; Wi-Fi positioning near a station, cell positioning between them.
        case metro(stations: [Coordinate], speed: Double)
    }

    /// A straight piece of the day: from `from` at `start` to `to` at `end` (equal when staying).
    struct Segment: Sendable {
        var start: Instant
        var end: Instant
        var from: Coordinate
        var to: Coordinate
        var underground = false
        var isStay: Bool { from == to }
    }

    let segments: [Segment]
    package let start: Instant

    /// Builds the track; legs that go back in time are clamped so the track is always ordered.
    package init(start: Instant, origin: Coordinate, legs: [Leg]) {
        var segments: [Segment] = []
        var now = start
        var here = origin
        for leg in legs {
            switch leg {
            case .stay(let until):
                let end = max(now, start + .milliseconds(Int64(until * 1000)))
                segments.append(Segment(start: now, end: end, from: here, to: here))
                now = end
            case .move(let waypoints, let speed), .metro(let waypoints, let speed):
                let underground = if case .metro = leg { true } else { false }
                for point in waypoints {
                    let seconds = here.distance(to: point) / max(speed, 0.1)
                    let end = now + .milliseconds(Int64(seconds * 1000))
                    segments.append(
                        Segment(start: now, end: end, from: here, to: point, underground: underground))
                    now = end
                    here = point
                }
            }
        }
        self.start = start
        self.segments = segments
    }

    init(start: Instant, segments: [Segment]) {
        self.start = start
        self.segments = segments
    }

    /// The user's true position at `instant` (the last position after the track ends).
    package func position(at instant: Instant) -> Coordinate {
        guard let segment = segment(at: instant) else { return segments.last?.to ?? .init(latitude: 0, longitude: 0) }
        let span = Double(segment.end.milliseconds - segment.start.milliseconds)
        guard span > 0 else { return segment.to }
        let fraction = Double(instant.milliseconds - segment.start.milliseconds) / span
        return segment.from.interpolated(to: segment.to, fraction: min(1, max(0, fraction)))
    }

    /// Whether the user is moving at `instant`.
    package func isMoving(at instant: Instant) -> Bool {
        segment(at: instant).map { !$0.isStay } ?? false
    }

    /// How far the user is from the nearest station when underground at `instant`; `nil` above ground.
    package func undergroundStationDistance(at instant: Instant) -> Double? {
        guard let segment = segment(at: instant), segment.underground else { return nil }
        let here = position(at: instant)
        return min(here.distance(to: segment.from), here.distance(to: segment.to))
    }

    /// Speed in m/s at `instant`.
    package func speed(at instant: Instant) -> Double {
        guard let segment = segment(at: instant), !segment.isStay else { return 0 }
        return segment.from.distance(to: segment.to) / max(0.001, (segment.end - segment.start).seconds)
    }

    /// Stays of at least `minimum`, as (arrival, departure, place); for visit events.
    package func stays(atLeast minimum: Duration) -> [(arrival: Instant, departure: Instant, place: Coordinate)] {
        var merged: [(arrival: Instant, departure: Instant, place: Coordinate)] = []
        for segment in segments where segment.isStay {
            if let last = merged.last, last.departure == segment.start, last.place == segment.from {
                merged[merged.count - 1].departure = segment.end
            } else {
                merged.append((segment.start, segment.end, segment.from))
            }
        }
        return merged.filter { $0.departure - $0.arrival >= minimum }
    }

    private func segment(at instant: Instant) -> Segment? {
        var low = 0
        var high = segments.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if segments[mid].end <= instant {
                low = mid + 1
            } else if segments[mid].start > instant {
                high = mid - 1
            } else {
                return segments[mid]
            }
        }
        return nil
    }
}
