package import BackgroundCore
import Foundation
import LocationLog
import TrackGeometry

extension TimelineEvaluation {
    /// One run's misses against the targets (a false or missed stay, an edge more than `interval`
    /// off, a trip more than `tolerance` off), each followed by the samples around it: time into
    /// the scenario (day and clock), trigger, accuracy and speed, how far the sample was from where
    /// the person really was, the straight line from the previous sample and the true path between
    /// the two. Empty when the run meets every target.
    package static func misses(
        of run: Run, configuration: SimulationConfiguration,
        samples: (_ from: Instant, _ to: Instant) throws -> [(point: SampleValues, trigger: String?)],
        interval: Duration = .seconds(120), tolerance: Double = 0.05
    ) rethrows -> String {
        let scenario = configuration.scenario
        let margin = Duration.seconds(360)
        var lines: [String] = []
        func clock(_ instant: Instant) -> String {
            let seconds = Int(((instant - scenario.start).seconds).rounded(.down))
            return String(
                format: "d%d %02d:%02d:%02d", seconds / 86_400, seconds % 86_400 / 3600, seconds % 3600 / 60,
                seconds % 60)
        }
        func show(_ title: String, from: Instant, to: Instant) throws {
            lines.append("seed \(configuration.seed) \(configuration.strategy.rawValue): \(title)")
            var previous: SampleValues?
            for (point, trigger) in try samples(from - margin, to + margin) {
                let truth = scenario.track.position(at: point.time)
                let off = truth.distance(to: Coordinate(latitude: point.latitude, longitude: point.longitude))
                var line = "  \(clock(point.time)) \(trigger ?? "-") acc \(fixed(point.accuracy ?? -1, 0))"
                line += " spd \(point.speed.map { fixed($0, 1) } ?? "-") off \(fixed(off, 0)) m"
                line += " true spd \(fixed(scenario.track.speed(at: point.time), 1))"
                if let previous {
                    let straight = Haversine.distance(
                        latitude1: previous.latitude, longitude1: previous.longitude, latitude2: point.latitude,
                        longitude2: point.longitude)
                    let path = scenario.track.pathLength(from: previous.time, to: point.time)
                    line += " | straight \(fixed(straight, 0)) m, true path \(fixed(path, 0)) m"
                }
                lines.append(line)
                previous = point
            }
        }
        for finding in run.score.findings {
            switch finding {
            case .falseStay(let stay):
                try show("false stay \(clock(stay.start))-\(clock(stay.end))", from: stay.start, to: stay.end)
            case .missedStay(let place):
                try show(
                    "missed stay \(clock(place.arrival))-\(clock(place.departure))", from: place.arrival,
                    to: place.departure)
            case .edge(let isStart, let truth, let detected) where abs((detected - truth).seconds) > interval.seconds:
                try show(
                    "\(isStart ? "start" : "end") \(clock(detected)), true \(clock(truth)) "
                        + "(\(fixed((detected - truth).seconds, 0)) s)", from: min(truth, detected),
                    to: max(truth, detected))
            case .trip(let journey, let detected) where abs(detected - journey.distance) > tolerance * journey.distance:
                try show(
                    "trip \(clock(journey.departure))-\(clock(journey.arrival)) \(fixed(detected, 0)) m "
                        + "for \(fixed(journey.distance, 0)) m (\(fixed((detected / journey.distance - 1) * 100, 1)) %)",
                    from: journey.departure, to: journey.arrival)
                // Where the detected trips there begin and end: a trip is measured from a stay's
                // centre to the next one's, so a centre off the true place is part of the error.
                for case .trip(let trip) in run.entries
                where trip.end > journey.departure - margin && trip.start < journey.arrival + margin {
                    let from = Coordinate(latitude: trip.startLatitude, longitude: trip.startLongitude)
                    let to = Coordinate(latitude: trip.endLatitude, longitude: trip.endLongitude)
                    lines.append(
                        "  detected \(clock(trip.start))-\(clock(trip.end)) \(fixed(trip.distance, 0)) m, "
                            + "\(trip.sampleCount) points, starts \(fixed(scenario.track.position(at: journey.departure).distance(to: from), 0)) m "
                            + "from where the person set off, ends \(fixed(scenario.track.position(at: journey.arrival).distance(to: to), 0)) m "
                            + "from where they arrived")
                }
            case .edge, .trip:
                continue
            }
        }
        return lines.joined(separator: "\n")
    }
}
