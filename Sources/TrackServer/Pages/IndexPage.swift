import BackgroundCore
import HTTPTypes
import Hummingbird
import Logging

extension PageController {
    /// `GET /`: the devices this token may read, with last-seen times and offline status.
    func indexPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let token = Authenticator.bearer(request, allowQuery: true)
        let owner = try await auth.owner(token: token)
        let now = clock.now
        let devices = try await self.devices.visibleDevices(to: owner)
        var rows: [String] = []
        for device in devices {
            // Times in the device's own zone, named.
            let localTime = try await self.localTime(device: device.name)
            var status = device.status(at: now, offlineAfter: offlineThreshold)
            if let since = device.silentSince, device.revokedAt == nil {
                status += ", silent since \(localTime.named(since))"
            }
            let seen = device.lastSeenAt.map { "\(localTime.named($0)) (\(Self.ago(now - $0)))" } ?? "never"
            var href = "/devices/\(HTML.percentEncoded(device.name))"
            if let token { href += "?token=\(HTML.percentEncoded(token))" }
            rows.append(
                "<tr class=\"\(status)\"><td><a href=\"\(HTML.escape(href))\">\(HTML.escape(device.name))</a></td>"
                    + "<td>\(seen)</td><td>\(status)</td><td>\(device.sampleCount)</td><td>\(device.rejectedCount)</td></tr>"
            )
        }
        let map = leafletAvailable ? try await lastPositionsMap(devices, token: token, now: now) : ""
        let styles = try PageAssets.text("index.css", "map-layout.css")
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>bgtrack devices</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>\(styles)</style>
            \(leafletAvailable ? "<link rel=\"stylesheet\" href=\"/static/leaflet/leaflet.css\"><script src=\"/static/leaflet/leaflet.js\"></script>" : "")
            </head>
            <body><h1>Devices</h1>
            <table><tr><th>device</th><th>last seen</th><th>status</th><th>samples</th><th>rejected</th></tr>
            \(rows.joined(separator: "\n"))
            </table>
            \(map)
            </body></html>
            """
        return Response.text(page, contentType: "text/html; charset=utf-8")
    }

    /// Every device's last position on one map, coloured by its status, linked to its day.
    private func lastPositionsMap(_ devices: [DeviceRecord], token: String?, now: Instant) async throws -> String {
        struct Marker: Encodable {
            var name, status, seen, href: String
            var lat, lon: Double
        }
        struct DevicesData: Encodable {
            var devices: [Marker]
            var tiles: String?
        }
        var markers: [Marker] = []
        for device in devices where device.revokedAt == nil {
            guard let seen = device.lastSeenAt,
                let last = try await samples.lastPosition(device: device.name, seen: seen)
            else { continue }
            var href = "/devices/\(HTML.percentEncoded(device.name))"
            if let token { href += "?token=\(HTML.percentEncoded(token))" }
            markers.append(
                Marker(
                    name: device.name, status: device.status(at: now, offlineAfter: offlineThreshold),
                    seen: try await localTime(device: device.name).named(last.time), href: href,
                    lat: last.latitude, lon: last.longitude))
        }
        return """
            <div id="devices-map"></div>
            \(PageScripts.tags(data: try HTML.scriptJSON(DevicesData(devices: markers, tiles: tileURL)), id: "devices-data", script: "devices.js"))
            """
    }

    static func ago(_ duration: Duration) -> String {
        let seconds = max(0, Int(duration.seconds))
        if seconds < 120 { return "\(seconds) s ago" }
        if seconds < 7200 { return "\(seconds / 60) min ago" }
        if seconds < 172_800 { return "\(seconds / 3600) h ago" }
        return "\(seconds / 86_400) days ago"
    }
}
