import BackgroundCore
import LocationLog
import TrackGeometry

/// The map page's timeline panel: the day's stays, trips and gaps listed beside the track and,
/// on the Leaflet map, stays drawn as circles of their radius labelled with their times, trips as
/// straight lines coloured by mode, unexplained gaps named as such; the upload delays (points that
/// arrived late) listed apart, under their own heading. Reads `TIMELINE` from the
/// page's `timeline-data` block; served as `/static/bgtrack/timeline.js` (no inline script), from
/// `Assets/timeline.js` and `Assets/timeline.css` (``PageAssets``).
enum TimelineScript {
    /// The page's data: the entries as `GET /v1/devices/{id}/timeline` answers them.
    struct Data: Encodable {
        var entries: [TimelineItem]
        /// `[start ms, offset minutes]` (``LocalTime/offsetTable(from:to:)``) and the zones' names.
        var offsets: [[Int64]]
        /// Upload delays, listed after the entries under their own heading.
        var delays: [TimelineItem.Reason]
        var zone: String
    }

    /// The panel, its data and its script, for the map page's body.
    static func html(
        entries: [TimelineEntry], open: Int, delays: [UploadDelay] = [], localTime: LocalTime, from: Instant,
        to: Instant
    ) throws -> String {
        let items =
            entries.dropLast(open).map { TimelineItem($0, open: false) }
            + entries.suffix(open).map { TimelineItem($0, open: true) }
        let data = Data(
            entries: items, offsets: localTime.offsetTable(from: from, to: to),
            delays: delays.map(TimelineItem.Reason.init), zone: localTime.zoneNames(from: from, to: to))
        return "<style>" + (try PageAssets.text("timeline.css")) + "</style><aside id=\"timeline\"></aside>\n"
            + PageScripts.tags(data: try HTML.scriptJSON(data), id: "timeline-data", script: "timeline.js")
    }
}
