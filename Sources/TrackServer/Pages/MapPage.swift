import BackgroundCore
import HTTPTypes
import Hummingbird
import LocationLog
import Logging

/// The data the map script draws, embedded in the page (no second request, no token in JS).
struct MapData: Encodable {
    var device: String
    var day: String
    /// Segments of `[lat, lon, time ms, accuracy, speed m/s, battery 0…1, vertical accuracy]`, -1
    /// where unknown.
    var segments: [[[Double]]]
    /// Per point, as `segments`: `[trigger, app state]`, "" where unknown.
    var details: [[[String]]]
    var offline: Bool
    var lastSeen: Int64?
    var gapSeconds: Double
    var tileURL: String?
    /// `[start ms, offset minutes]` for the times the script shows (``LocalTime/offsetTable(from:to:)``),
    /// and the name of the day's zone (two names, comma-separated, on a day the device changed zone).
    var offsets: [[Int64]]
    var zone: String
    /// The phone's reported gap intervals that overlap the day, with their words (``GapScript``).
    var gaps: [GapBody] = []
    /// The phone's reported upload delays that overlap the day, listed apart from the gaps.
    var delays: [GapBody] = []
    /// The day's points the clean-up rules exclude (issue 25 item 5): kept, not drawn in the
    /// track, shown as excluded markers. Each is `[lat, lon, t, accuracy or -1]`, its rule in `excludedRules`.
    var excluded: [[Double]] = []
    var excludedRules: [String] = []
    /// A live share: the one point is the newest position, drawn as a marker with its time and accuracy.
    var live = false
    /// `lastSeen` in the device's local time, for the offline banner.
    var lastSeenText: String?
}

extension PageController {
    /// `GET /devices/{id}?day=YYYY-MM-DD`: the day's track drawn in the browser, offline-safe. The
    /// day is the device's local day (``LocalTime``): 23 or 25 hours across a DST change, and each
    /// sample on the day of the zone it was taken in.
    func mapPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let token = Authenticator.bearer(request, allowQuery: true)
        let record = try await auth.readableDevice(request, context: context)
        let device = record.name
        let now = clock.now
        let localTime = try await self.localTime(device: device)
        let dayNumber = try day(request, fallback: localTime.day(of: record.lastSeenAt ?? now))
        let range = localTime.range(ofDay: dayNumber)
        let (start, end) = (range.lowerBound, range.upperBound)
        let (segments, excluded) = Self.excluding(
            try await tracks.sampleSegments(device: device, from: start, to: end).map { segment in
                // Where the device changed zone, the range may hold a few samples of a neighbouring day.
                segment.filter { localTime.day(of: $0.time) == dayNumber }
            }.filter { !$0.isEmpty },
            rules: cleanupRules, maximumGap: gapThreshold)
        var data = MapData(
            device: device, day: HTML.isoDay(dayNumber),
            segments: segments.map {
                $0.map {
                    [
                        $0.latitude, $0.longitude, Double($0.time.milliseconds), $0.accuracy ?? -1, $0.speed ?? -1,
                        $0.battery ?? -1, $0.verticalAccuracy ?? -1,
                    ]
                }
            },
            details: segments.map { $0.map { [$0.trigger ?? "", $0.state ?? ""] } },
            offline: record.isOffline(at: now, threshold: offlineThreshold),
            lastSeen: record.lastSeenAt?.milliseconds, gapSeconds: gapThreshold.seconds,
            tileURL: tileURL, offsets: localTime.offsetTable(from: start, to: end),
            zone: localTime.zoneNames(from: start, to: end))
        data.lastSeenText = record.lastSeenAt.map { localTime.text($0) }
        (data.gaps, data.delays) = try await gaps.gapBodies(
            device: device, from: start, to: end, localTime: localTime)
        data.excluded = excluded.map {
            [$0.sample.latitude, $0.sample.longitude, $0.sample.time.seconds * 1000, $0.sample.accuracy ?? -1]
        }
        data.excludedRules = excluded.map(\.flag.name)
        let page = MapPageHTML(
            data: data, dayNumber: dayNumber, token: token, pointCount: segments.joined().count,
            leaflet: leafletAvailable,
            timelineHTML: try await mapTimelineHTML(device: device, from: start, to: end))
        return Response.text(try page.render(), contentType: "text/html; charset=utf-8")
    }

    /// The asked day as a day number since the epoch (of local days); by default `fallback`.
    private func day(_ request: Request, fallback: Int) throws(APIError) -> Int {
        guard let text = request.uri.queryParameters.get("day"), !text.isEmpty else { return fallback }
        guard let instant = TimestampParser.iso8601(text + "T00:00:00Z") else {
            throw APIError(.badRequest, "day must be YYYY-MM-DD, got \"\(text.prefix(20))\"")
        }
        return Int(instant.milliseconds.quotientFloor(86_400_000))
    }

    /// The map page's timeline panel for `from..<to`, or nothing without a timeline.
    func mapTimelineHTML(device: String, from: Instant, to: Instant) async throws -> String {
        guard let timeline else { return "" }
        let found = try await timeline.timeline(device: device, from: from, to: to)
        return try TimelineScript.html(
            entries: found.closed + found.provisional, open: found.provisional.count,
            delays: try await intervals.uploadDelays(device: device, from: from, to: to),
            localTime: try await localTime(device: device), from: from, to: to)
    }
}

/// The map page's markup around ``MapScript``.
struct MapPageHTML {
    var data: MapData
    var dayNumber: Int
    var token: String?
    var pointCount: Int
    /// Draw with Leaflet (served from `/static/leaflet/`); else the plain SVG map.
    var leaflet: Bool
    /// The timeline panel (``TimelineScript``), empty without a timeline.
    var timelineHTML = ""

    func link(day: Int) -> String {
        var query = "day=\(HTML.isoDay(day))"
        if let token { query += "&token=\(HTML.percentEncoded(token))" }
        return "/devices/\(HTML.percentEncoded(data.device))?\(query)"
    }

    func render() throws -> String {
        let name = HTML.escape(data.device)
        let tokenField = token.map { "<input type=\"hidden\" name=\"token\" value=\"\(HTML.escape($0))\">" } ?? ""
        let indexLink = token.map { "/?token=\(HTML.percentEncoded($0))" } ?? "/"
        let banner =
            data.offline
            ? "<div id=\"offline\" class=\"banner\">Offline: nothing heard from this device "
                + (data.lastSeenText.map { "since \($0)" } ?? "yet")
                + "</div>" : ""
        let head =
            leaflet
            ? "<link rel=\"stylesheet\" href=\"/static/leaflet/leaflet.css\"><style>"
                + (try PageAssets.text("map.css", "leaflet-map.css", "map-layout.css", "gaps.css")) + "</style>"
                + "<script src=\"/static/leaflet/leaflet.js\"></script>"
            : "<style>" + (try PageAssets.text("map.css", "gaps.css")) + "</style>"
        // The map and, beside it (below it on a phone), the panels the timeline and gap scripts fill.
        let body =
            leaflet
            ? "<div id=\"main\"><div id=\"map\"></div><div id=\"panels\"></div></div>"
            : "<div class=\"hint\" id=\"leaflet-hint\">A plain map: install Debian's libjs-leaflet "
                + "(<code>apt-get install libjs-leaflet</code>) and restart the server for an interactive one.</div>"
                + "<div id=\"main\"><div id=\"map\"><svg id=\"svg\" xmlns=\"http://www.w3.org/2000/svg\"></svg>"
                + "<div id=\"tip\"></div></div><div id=\"panels\"></div></div>"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(name) — \(data.day)</title>
            \(head)</head>
            <body class="day">
            <header><a href="\(HTML.escape(indexLink))">devices</a> / <strong>\(name)</strong>
            <form method="get" action="/devices/\(HTML.escape(HTML.percentEncoded(data.device)))">
            <a href="\(HTML.escape(link(day: dayNumber - 1)))">◀</a>
            <input type="date" name="day" value="\(data.day)">\(tokenField)
            <a href="\(HTML.escape(link(day: dayNumber + 1)))">▶</a>
            <noscript><button>show</button></noscript></form>
            <span id="summary">\(pointCount) points, \(data.segments.count) segments (\(data.zone) day)</span></header>
            \(banner)
            \(body)
            \(PageScripts.tags(data: try HTML.scriptJSON(data), id: "map-data", script: leaflet ? "leaflet-map.js" : "map.js"))
            \(timelineHTML)
            </body></html>
            """
    }
}
