import BackgroundCore
import LocationLog

/// The timeline in the track exports: GeoJSON features and GPX waypoints and routes, appended
/// to (GeoJSON) or placed before (GPX) the track itself.
public enum TimelineExport {
    /// `,`-led GeoJSON features: a `Point` per stay (its centre), a `LineString` from start to end
    /// per trip, a feature with `null` geometry per gap (RFC 7946 §3.2 allows it). Each has a
    /// `"timeline"` property naming its kind, so a reader tells them from the track's own points.
    /// `start` and `end` are UTC; `start_local` and `end_local` the same instants in local time,
    /// `time_zone` the zone at the start.
    public static func geoJSONFeatures(_ entries: [TimelineEntry], localTime: ExportLocalTime = .utc) -> String {
        var out = ""
        for entry in entries {
            let (start, end) = (localTime.local(entry.start), localTime.local(entry.end))
            let times =
                #""start":"\#(entry.start.iso8601)","end":"\#(entry.end.iso8601)","#
                + #""start_local":"\#(start.time)","end_local":"\#(end.time)","#
                + #""time_zone":"\#(TrackExport.jsonEscaped(start.zone))""#
            switch entry {
            case .stay(let stay):
                out += #",{"type":"Feature","geometry":{"type":"Point","coordinates":["#
                out += "\(TrackExport.number(stay.longitude)),\(TrackExport.number(stay.latitude))]},"
                out +=
                    #""properties":{"timeline":"stay",\#(times),"radius":\#(TrackExport.number(stay.radius.rounded())),"#
                out += #""samples":\#(stay.sampleCount),"inferred":\#(stay.inferred)}}"#
            case .trip(let trip):
                out += #",{"type":"Feature","geometry":{"type":"LineString","coordinates":[["#
                out += "\(TrackExport.number(trip.startLongitude)),\(TrackExport.number(trip.startLatitude))],["
                out += "\(TrackExport.number(trip.endLongitude)),\(TrackExport.number(trip.endLatitude))]]},"
                out += #""properties":{"timeline":"trip",\#(times),"mode":"\#(trip.mode.rawValue)","#
                out += #""distance":\#(TrackExport.number(trip.distance.rounded())),"#
                out += #""duration":\#(TrackExport.number(trip.duration.seconds.rounded()))}}"#
            case .gap(let gap):
                out += #",{"type":"Feature","geometry":null,"properties":{"timeline":"gap",\#(times),"#
                out += #""explained":\#(gap.explained),"reasons":["#
                out += gap.reasons.map { #""\#($0.reason.rawValue)""# }.joined(separator: ",") + "]}}"
            }
        }
        return out
    }

    /// GPX 1.1 elements that precede the `trk` (the schema orders `wpt`, then `rte`, then `trk`):
    /// a `wpt` per stay, a `rte` from start to end per trip (its `type` the mode), an empty `rte`
    /// of type `gap` per gap. `<time>` is UTC; each `desc` gives the span in local time.
    public static func gpxElements(_ entries: [TimelineEntry], localTime: ExportLocalTime = .utc) -> String {
        var waypoints = ""
        var routes = ""
        for entry in entries {
            let (start, end) = (localTime.local(entry.start), localTime.local(entry.end))
            let span = "\(start.time) – \(end.time) \(TrackExport.xmlEscaped(start.zone))"
            switch entry {
            case .stay(let stay):
                waypoints +=
                    #"<wpt lat="\#(TrackExport.number(stay.latitude))" lon="\#(TrackExport.number(stay.longitude))">"#
                waypoints += "<time>\(stay.start.iso8601)</time><name>stay</name>"
                waypoints += "<desc>\(span), \(stay.sampleCount) samples\(stay.inferred ? ", inferred" : "")</desc>"
                waypoints += "<type>stay</type></wpt>\n"
            case .trip(let trip):
                routes += "<rte><name>trip</name><desc>\(span), \(Int(trip.distance.rounded())) m</desc>"
                routes += "<type>\(trip.mode.rawValue)</type>"
                routes +=
                    #"<rtept lat="\#(TrackExport.number(trip.startLatitude))" lon="\#(TrackExport.number(trip.startLongitude))"><time>\#(trip.start.iso8601)</time></rtept>"#
                routes +=
                    #"<rtept lat="\#(TrackExport.number(trip.endLatitude))" lon="\#(TrackExport.number(trip.endLongitude))"><time>\#(trip.end.iso8601)</time></rtept>"#
                routes += "</rte>\n"
            case .gap(let gap):
                let why = gap.explained ? gap.reasons.map(\.reason.rawValue).joined(separator: ", ") : "unexplained"
                routes += "<rte><name>gap</name><desc>\(span), \(why)</desc><type>gap</type></rte>\n"
            }
        }
        return waypoints + routes
    }
}
