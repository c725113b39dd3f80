import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import LocationLog

/// The data the range map script starts from, embedded in the page: the first answer of
/// `GET /v1/devices/{id}/map` at the finest detail the budget allows, so the page draws without a
/// second request; it asks again (with the token of the page's own URL) when the user zooms in.
struct RangeMapData: Encodable {
    var device: String
    var title: String
    var tileURL: String?
    /// `[start ms, offset minutes]` (``LocalTime/offsetTable(from:to:)``) and the zones' names.
    var offsets: [[Int64]]
    var zone: String
    var body: MapBody
}

extension PageController {
    /// `GET /devices/{id}/map?year=YYYY` (or `from`/`to`): a year, or any range, on one map at a
    /// bounded cost (issue 25 item 1), with the excluded points as markers that can be shown.
    func rangeMapPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let token = Authenticator.bearer(request, allowQuery: true)
        let record = try await auth.readableDevice(request, context: context)
        let device = record.name
        guard leafletAvailable else {
            throw APIError(
                .notImplemented,
                "the range map needs Leaflet: install Debian's libjs-leaflet (apt-get install libjs-leaflet) "
                    + "and restart the server; the day map works without it")
        }
        let parameters = request.uri.queryParameters
        let end = (record.lastSeenAt ?? clock.now) + .milliseconds(1)
        var range: (from: String, to: String)?
        let localTime = try await self.localTime(device: device)
        if let text = parameters.get("year"), !text.isEmpty {
            guard text.utf8.count == 4, let year = Int(text), (1970...9999).contains(year) else {
                throw APIError(.badRequest, "year must be four digits from 1970 to 9999, e.g. year=2026")
            }
            // The device's local year: from its first local midnight to its last, DST included.
            let local = localTime.range(ofYear: year)
            range = ("\(local.lowerBound.milliseconds)", "\(local.upperBound.milliseconds)")
        }
        let query = try MapQuery(
            { name in
                switch name {
                case "from": range?.from ?? parameters.get("from") ?? "\((end - .seconds(365 * 86_400)).milliseconds)"
                case "to": range?.to ?? parameters.get("to") ?? "\(end.milliseconds)"
                case "zoom": nil
                default: parameters.get(name)
                }
            }, now: clock.now)
        let permit = try readLimiter.acquire()
        defer { permit.release() }
        let body = try await maps.mapBody(device: device, query: query)
        let zone = localTime.zoneNames(from: query.from, to: query.to)
        let title =
            localTime.text(query.from).prefix(10) + " … " + localTime.text(query.to - .milliseconds(1)).prefix(10)
        let data = RangeMapData(
            device: device, title: String(title), tileURL: tileURL,
            offsets: localTime.offsetTable(from: query.from, to: query.to), zone: zone, body: body)
        let name = HTML.escape(device)
        let indexLink = token.map { "/?token=\(HTML.percentEncoded($0))" } ?? "/"
        let dayLink =
            "/devices/\(HTML.percentEncoded(device))" + (token.map { "?token=\(HTML.percentEncoded($0))" } ?? "")
        let styles = try PageAssets.text("map.css", "range-map.css", "map-layout.css")
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(name) — \(HTML.escape(data.title))</title>
            <link rel="stylesheet" href="/static/leaflet/leaflet.css"><style>\(styles)</style>
            <script src="/static/leaflet/leaflet.js"></script></head>
            <body>
            <header><a href="\(HTML.escape(indexLink))">devices</a> / <strong>\(name)</strong>
            / <a href="\(HTML.escape(dayLink))">day</a> / \(HTML.escape(data.title)) (\(zone))
            <label><input type="checkbox" id="show-excluded"> excluded points
            (<span id="excluded-count">\(body.excluded.count)\(body.excludedTruncated ? "+" : "")</span>)</label>
            <span id="summary"></span></header>
            <div id="map"></div>
            \(PageScripts.tags(data: try HTML.scriptJSON(data), id: "map-data", script: "range-map.js"))
            </body></html>
            """
        return Response.text(html, contentType: "text/html; charset=utf-8")
    }
}
