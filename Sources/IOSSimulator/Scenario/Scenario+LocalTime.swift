import BackgroundCore

extension Scenario {
    /// The same day with its times read on the local wall clock: `elapsed(wall)` is how many
    /// seconds after `start` (local midnight) the clock shows `wall` seconds past midnight. On a
    /// day with a DST change that is not the same: in Berlin on the last Sunday of March, 08:00 is
    /// 7 hours after midnight. Stays absorb the difference; a walk or a ride keeps its length
    /// unless it spans the change itself (none of the library's days moves at 02:00 or 03:00).
    package func inLocalTime(_ elapsed: (Double) -> Double) -> Scenario {
        var copy = self
        copy.happenings = happenings.map { (at: elapsed($0.at), $0.1) }
        copy.networkOutages = networkOutages.map {
            elapsed($0.lowerBound)...max(elapsed($0.lowerBound), elapsed($0.upperBound))
        }
        copy.track = track.remapped(elapsed)
        return copy
    }
}

extension MovementTrack {
    /// The same track with every segment's times passed through `elapsed` (seconds after `start`).
    func remapped(_ elapsed: (Double) -> Double) -> MovementTrack {
        func map(_ instant: Instant) -> Instant {
            start
                + .milliseconds(
                    Int64((elapsed(Double(instant.milliseconds - start.milliseconds) / 1000) * 1000).rounded()))
        }
        var moved: [Segment] = []
        for segment in segments {
            var copy = segment
            copy.start = max(moved.last?.end ?? start, map(segment.start))
            copy.end = max(copy.start, map(segment.end))
            moved.append(copy)
        }
        return MovementTrack(start: start, segments: moved)
    }
}
