import BackgroundCore
import HTTPTypes
import Hummingbird
import Logging

extension TrackServerEnvironment {
    /// `GET /`: the devices this token may read, with last-seen times and offline status.
    func indexPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let token = Authenticator.bearer(request, allowQuery: true)
        let owner = try await auth.owner(token: token)
        let now = clock.now
        let rows = try await visibleDevices(to: owner).map { device -> String in
            let status = device.status(at: now, offlineAfter: configuration.offlineThreshold)
            let seen =
                device.lastSeenAt.map {
                    "\(HTML.utc($0.milliseconds, offsetMinutes: configuration.utcOffsetMinutes)) (\(Self.ago(now - $0)))"
                } ?? "never"
            var href = "/devices/\(HTML.percentEncoded(device.name))"
            if let token { href += "?token=\(HTML.percentEncoded(token))" }
            return "<tr class=\"\(status)\"><td><a href=\"\(HTML.escape(href))\">\(HTML.escape(device.name))</a></td>"
                + "<td>\(seen)</td><td>\(status)</td><td>\(device.sampleCount)</td></tr>"
        }
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>bgtrack devices</title>
            <style>body{font:14px system-ui,sans-serif;margin:24px}td,th{padding:4px 12px;text-align:left}
            .offline td:nth-child(3){color:#c01c28;font-weight:600}.revoked{color:#888}</style></head>
            <body><h1>Devices</h1>
            <table><tr><th>device</th><th>last seen</th><th>status</th><th>samples</th></tr>
            \(rows.joined(separator: "\n"))
            </table></body></html>
            """
        return Response.text(page, contentType: "text/html; charset=utf-8")
    }

    static func ago(_ duration: Duration) -> String {
        let seconds = max(0, Int(duration.seconds))
        if seconds < 120 { return "\(seconds) s ago" }
        if seconds < 7200 { return "\(seconds / 60) min ago" }
        if seconds < 172_800 { return "\(seconds / 3600) h ago" }
        return "\(seconds / 86_400) days ago"
    }
}
