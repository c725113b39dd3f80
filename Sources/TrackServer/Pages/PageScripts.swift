import HTTPTypes
import Hummingbird

/// The pages' scripts, files in `Pages/Assets` joined per page (each page's data first), served
/// from `/static/bgtrack/` so the Content-Security-Policy allows scripts
/// from this server only, never inline ones (`script-src 'self'`, issue 23): an injected
/// `<script>` or `onclick=` in a page cannot run. A page hands its data over in a
/// `<script type="application/json">` block, which a browser never executes, and the script
/// reads it from there.
enum PageScripts {
    /// The script of `name` from the files of `Pages/Assets` (``PageAssets``), or `nil` for an
    /// unknown name.
    static func script(_ name: String) throws(APIError) -> String? {
        switch name {
        case "map.js":
            data("MAP", "map-data")
                + (try PageAssets.text("local-time.js", "duration.js", "day-picker.js", "gaps.js", "svg-map.js"))
        case "leaflet-map.js":
            data("MAP", "map-data")
                + (try PageAssets.text(
                    "local-time.js", "duration.js", "day-picker.js", "gaps.js", "map-layout.js", "leaflet-map.js"))
        case "range-map.js":
            data("MAP", "map-data") + (try PageAssets.text("local-time.js", "map-layout.js", "range-map.js"))
        case "timeline.js":
            data("TIMELINE", "timeline-data") + (try PageAssets.text("local-time.js", "duration.js", "timeline.js"))
        case "devices.js":
            data("DATA", "devices-data") + "const DEVICES = DATA.devices, TILES = DATA.tiles;\n"
                + (try PageAssets.text("map-layout.js", "devices-map.js"))
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

extension PageController {
    /// `GET /static/bgtrack/{name}`: the pages' scripts (no data, no token: public).
    func pageScript(_ request: Request, context: some RequestContext) async throws -> Response {
        let name = request.uri.path.split(separator: "/").last.map(String.init) ?? ""
        guard let script = try PageScripts.script(name) else {
            throw APIError(
                .notFound, "no page script \"\(name.prefix(40))\"; the pages use map.js, leaflet-map.js, devices.js")
        }
        var response = Response.text(script, contentType: "text/javascript; charset=utf-8")
        response.headers[.cacheControl] = "no-cache"
        return response
    }
}
