import ArgumentParser
import BackgroundCore
import LocationLog
import TrackGeometry
import TrackServer

/// `bgtrack serve`'s timeline tuning (stays, trips and gaps; docs/server.md "Timeline").
struct TimelineOptions: ParsableArguments {
    @Option(help: "Metres within which samples count as one stay.") var stayRadius = 100.0
    @Option(help: "Minutes within --stay-radius that make a stay (fractions allowed).") var stayMinutes = 10.0
    @Option(
        help: ArgumentHelp(
            "Minutes without a sample that make a gap in the timeline (fractions allowed); about 4× the "
                + "phones' sampling interval."))
    var timelineGapMinutes = 8.0
    @Option(
        help: ArgumentHelp(
            "Minutes of silence after samples at rest, ending away from the place, taken as time still there "
                + "(the stay lasts until the first sample away, marked inferred); 0 makes every such silence a gap."))
    var restingSilenceMinutes = 15.0
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Infer a stay across a silence with the same position at both ends for Overland, OwnTracks, "
                + "OsmAnd clients and imports, as for the native client (on; --no-… keeps their silences gaps)."))
    var inferStaysForAllClients = true
    @Flag(help: "Compute no timeline (GET /v1/devices/{id}/timeline answers 404).") var noTimeline = false

    func validate() throws {
        guard stayRadius.isFinite, (1...100_000).contains(stayRadius) else {
            throw ValidationError("--stay-radius \(stayRadius) must be between 1 and 100000 metres")
        }
        guard stayMinutes.isFinite, stayMinutes > 0, stayMinutes <= 10_080 else {
            throw ValidationError("--stay-minutes \(stayMinutes) must be above 0 and at most 10080 (a week)")
        }
        guard timelineGapMinutes.isFinite, timelineGapMinutes > 0, timelineGapMinutes <= 10_080 else {
            throw ValidationError("--timeline-gap-minutes \(timelineGapMinutes) must be above 0 and at most 10080")
        }
        guard restingSilenceMinutes.isFinite, restingSilenceMinutes >= 0, restingSilenceMinutes <= 1440 else {
            throw ValidationError(
                "--resting-silence-minutes \(restingSilenceMinutes) must be from 0 (off) to 1440 (a day)")
        }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.timelineEnabled = !noTimeline
        configuration.timeline = TimelineUpdater.Settings(
            timeline: TimelineSettings(
                stayRadius: stayRadius, minimumStay: .milliseconds(Int64((stayMinutes * 60_000).rounded())),
                gapThreshold: .milliseconds(Int64((timelineGapMinutes * 60_000).rounded())),
                restingSilence: .milliseconds(Int64((restingSilenceMinutes * 60_000).rounded()))),
            infersStaysForOtherClients: inferStaysForAllClients)
    }
}
