import HTTPTypes
import Hummingbird

/// The pages' scripts, served from `/static/bgtrack/` so the Content-Security-Policy allows scripts
/// from this server only, never inline ones (`script-src 'self'`, issue 23): an injected
/// `<script>` or `onclick=` in a page cannot run. A page hands its data over in a
/// `<script type="application/json">` block, which a browser never executes, and the script
/// reads it from there.
enum PageScripts {
    /// The map page's day picker submits its form on change (no inline `onchange`).
    static let dayPicker = """
        document.querySelectorAll('input[name=day]').forEach(i => i.addEventListener('change', () => i.form.submit()));

        """

    /// `dur(seconds)`, which the map and timeline scripts share: "7 h 59 min", "45 min". Rounded
    /// to whole minutes first, so 7 h 59.9 min reads "8 h 0 min", never "7 h 60 min".
    static let duration = """
        const dur = s => { const m = Math.round(s / 60); \
        return m >= 60 ? Math.floor(m / 60) + ' h ' + m % 60 + ' min' : m + ' min'; };
        """

    /// Local time from a page's table of `[start ms, offset minutes]` (``LocalTime/offsetTable(from:to:)``),
    /// daylight saving and zone changes included: `zoneOffset` (minutes east of UTC at `ms`),
    /// `zoneLocal` (a `Date` whose UTC fields read as the local time) and `zoneLabel` (`+01:00`).
    /// Function declarations, so two scripts of one page may both carry them.
    static let localTime = """
        function zoneOffset(offsets, ms) { let o = offsets.length ? offsets[0][1] : 0; \
        for (const s of offsets) { if (s[0] <= ms) o = s[1]; else break; } return o; }
        function zoneLocal(offsets, ms) { return new Date(ms + zoneOffset(offsets, ms) * 60000); }
        function zoneLabel(offsets, ms) { const m = zoneOffset(offsets, ms), a = Math.abs(m); \
        return (m < 0 ? '-' : '+') + String(Math.floor(a / 60)).padStart(2, '0') + ':' + String(a % 60).padStart(2, '0'); }

        """

    /// The script of `name`, or `nil` for an unknown one.
    static func script(_ name: String) -> String? {
        switch name {
        case "map.js": data("MAP", "map-data") + localTime + dayPicker + GapScript.javascript + MapScript.javascript
        case "leaflet-map.js":
            data("MAP", "map-data") + localTime + dayPicker + GapScript.javascript + MapLayout.javascript
                + LeafletMapScript.javascript
        case "range-map.js": data("MAP", "map-data") + localTime + MapLayout.javascript + RangeMapScript.javascript
        case "timeline.js": data("TIMELINE", "timeline-data") + localTime + TimelineScript.javascript
        case "devices.js":
            data("DATA", "devices-data") + "const DEVICES = DATA.devices, TILES = DATA.tiles;\n"
                + MapLayout.javascript + TrackServerEnvironment.devicesMapScript
        default: nil
        }
    }

    /// `const NAME = …` from the page's JSON block of that id.
    private static func data(_ name: String, _ id: String) -> String {
        "const \(name) = JSON.parse(document.getElementById('\(id)').textContent);\n"
    }

    /// A page's data block and the script that reads it.
    static func tags(data json: String, id: String, script: String) -> String {
        "<script type=\"application/json\" id=\"\(id)\">\(json)</script>\n<script src=\"/static/bgtrack/\(script)\"></script>"
    }
}

extension TrackServerEnvironment {
    /// `GET /static/bgtrack/{name}`: the pages' scripts (no data, no token: public).
    func pageScript(_ request: Request, context: some RequestContext) async throws -> Response {
        let name = request.uri.path.split(separator: "/").last.map(String.init) ?? ""
        guard let script = PageScripts.script(name) else {
            throw APIError(
                .notFound, "no page script \"\(name.prefix(40))\"; the pages use map.js, leaflet-map.js, devices.js")
        }
        var response = Response.text(script, contentType: "text/javascript; charset=utf-8")
        response.headers[.cacheControl] = "no-cache"
        return response
    }
}
