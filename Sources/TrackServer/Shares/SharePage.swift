import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import LocationLog

/// A shared page's markup around the map's script (`map.js`, `leaflet-map.js`): the shared range (or the live position) only, no
/// navigation to other days or devices, no token anywhere in the page.
struct SharePageHTML {
    var data: MapData
    var title: String
    var pointCount: Int
    /// "last position 3 h ago" when the newest point is old.
    var staleness: String?
    var expires: String
    var leaflet: Bool

    func render() throws -> String {
        let head =
            leaflet
            ? "<link rel=\"stylesheet\" href=\"/static/leaflet/leaflet.css\"><style>"
                + (try PageAssets.text("map.css", "leaflet-map.css", "map-layout.css")) + "</style>"
                + "<script src=\"/static/leaflet/leaflet.js\"></script>"
            : "<style>" + (try PageAssets.text("map.css")) + "</style>"
        let body =
            leaflet
            ? "<div id=\"map\"></div>"
            : "<div id=\"map\"><svg id=\"svg\" xmlns=\"http://www.w3.org/2000/svg\"></svg><div id=\"tip\"></div></div>"
        var shown = "\(pointCount) points, \(data.segments.count) segments"
        if data.live {
            shown =
                data.segments.first?.last.map {
                    "position at \(data.lastSeenText ?? "\(Int64($0[2])) ms")"
                        + ($0[3] >= 0 ? ", ±\(Int($0[3].rounded())) m" : "")
                } ?? "no position yet"
        }
        let note = staleness.map { "<div id=\"stale\" class=\"banner\">\(HTML.escape($0))</div>" } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(HTML.escape(title))</title>
            \(head)</head>
            <body>
            <header><strong>\(HTML.escape(title))</strong>
            <span id="summary">\(shown); shared read-only, link expires \(HTML.escape(expires))</span></header>
            \(note)
            \(body)
            \(PageScripts.tags(data: try HTML.scriptJSON(data), id: "map-data", script: leaflet ? "leaflet-map.js" : "map.js"))
            </body></html>
            """
    }

    /// The page of a link that does not serve (unknown, expired, revoked, rate-limited).
    static func notice(_ status: HTTPResponse.Status, _ title: String, _ text: String, headers: HTTPFields = [:])
        -> Response
    {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
            <title>\(HTML.escape(title))</title></head>
            <body><h1>\(HTML.escape(title))</h1><p id="notice">\(HTML.escape(text))</p></body></html>
            """
        var response = Response.text(html, contentType: "text/html; charset=utf-8", status: status)
        for field in headers { response.headers.append(field) }
        return response
    }
}
