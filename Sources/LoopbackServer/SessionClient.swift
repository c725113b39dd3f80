import BackgroundCore
package import Foundation
import LocationLog
import TrackGeometry

#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// The server's session routes as a simulated phone calls them over real HTTP (`bgtrack demo`'s
/// phone and the timeline evaluation's): each call blocks the simulation's thread until the
/// answer is in, so the simulated world stands still meanwhile.
package struct SessionClient: Sendable {
    package let base: URL
    package let session: URLSession

    package init(base: URL, session: URLSession) {
        self.base = base
        self.session = session
    }

    /// `POST /v1/sessions` with the device's own token; the new session token, or nil.
    package func logIn(device: String, token: String) -> String? {
        let (status, json) = post("v1/sessions", json: ["device": device, "token": token], bearer: nil)
        guard status == 201, let opened = json?["token"] as? String else { return nil }
        return opened
    }

    /// `POST /v1/sessions/heartbeat` with a session token: the HTTP status (nil without an
    /// answer) and the body, as the phone's heartbeat request receives them.
    package func heartbeat(sessionToken: String) -> (status: Int?, body: Data?) {
        var request = URLRequest(url: base.appendingPathComponent("v1/sessions/heartbeat"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(sessionToken)", forHTTPHeaderField: "Authorization")
        return send(request)
    }

    /// A JSON POST; the status (nil without an answer) and the decoded object.
    package func post(_ path: String, json: [String: String]?, bearer: String?) -> (Int?, [String: Any]?) {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json { request.httpBody = try? JSONSerialization.data(withJSONObject: json) }
        let (status, data) = send(request)
        return (status, data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
    }

    /// `GET /v1/devices/{id}/timeline?from&to` with the device's token: the entries the server's
    /// incremental timeline holds, closed ones first, the open one last.
    func timeline(device: String, token: String, from: Instant, to: Instant) throws -> [TimelineEntry] {
        var components = URLComponents(
            url: base.appendingPathComponent("v1/devices/\(device)/timeline"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "from", value: "\(from.milliseconds)"),
            URLQueryItem(name: "to", value: "\(to.milliseconds)"),
        ]
        guard let url = components?.url else { throw EvaluationError("no timeline URL for device \(device)") }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (status, data) = send(request)
        guard status == 200, let data else {
            throw EvaluationError(
                "GET \(url.path) answered \(status.map(String.init) ?? "nothing"): "
                    + String(decoding: data ?? Data(), as: UTF8.self))
        }
        return try TimelineDocument.entries(from: data)
    }

    /// Any request; the status (nil without an answer) and the body.
    package func send(_ request: URLRequest) -> (Int?, Data?) {
        let session = self.session
        return blocking { () -> (Int?, Data?) in
            guard let (data, response) = try? await session.data(for: request) else { return (nil, nil) }
            return ((response as? HTTPURLResponse)?.statusCode, data)
        }
    }
}
