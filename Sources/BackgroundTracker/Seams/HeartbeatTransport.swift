package import BackgroundCore
package import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one heartbeat (`POST /v1/sessions/heartbeat`, docs/protocol.md §Sessions) and reports the answer.
///
/// Live: `URLSessionHeartbeatTransport`, an ordinary data task (a heartbeat matters only while the
/// app runs). Tests answer by hand.
@MainActor
package protocol HeartbeatTransport: AnyObject {
    func send(_ completion: @escaping @MainActor @Sendable (HeartbeatMachine.Response) -> Void)
}

/// Heartbeats over `URLSession.shared` with the session token as `Authorization: Bearer`.
@MainActor
final class URLSessionHeartbeatTransport: HeartbeatTransport {
    private let request: URLRequest

    init(server: URL, sessionToken: String) {
        var request = URLRequest(url: server.appendingPathComponent("v1/sessions/heartbeat"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(sessionToken)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 30
        self.request = request
    }

    func send(_ completion: @escaping @MainActor @Sendable (HeartbeatMachine.Response) -> Void) {
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            let answer = HeartbeatMachine.Response(
                status: (response as? HTTPURLResponse)?.statusCode, body: data ?? Data(), failed: error != nil)
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(answer) } }
        }
        task.resume()
    }
}

extension HeartbeatMachine.Response {
    /// What an answer to `POST /v1/sessions/heartbeat` means: 200 with `expires_at` (epoch
    /// milliseconds): active; 401/403: the session is over; anything else (no answer, 5xx, a body
    /// without `expires_at`): try again at the next beat.
    package init(status: Int?, body: Data, failed: Bool) {
        guard !failed, let status else {
            self = .failed
            return
        }
        if status == 401 || status == 403 {
            self = .rejected(status: status)
            return
        }
        guard status == 200,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let expires = (object["expires_at"] as? NSNumber)?.int64Value
        else {
            self = .failed
            return
        }
        self = .active(expiresAt: Instant(milliseconds: expires))
    }
}
