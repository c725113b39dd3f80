package import Foundation
package import LocationLog

#if canImport(FoundationNetworking)
    // On Linux URLSession lives in FoundationNetworking; Foundation re-exports it on Apple platforms.
    package import FoundationNetworking
#endif

/// `POST /v1/batches` over URLSession, with a bearer token and an optional gzip body.
///
/// ```swift
/// let transport = URLSessionBatchTransport(server: URL(string: "http://localhost:8080")!, token: token)
/// ```
package struct URLSessionBatchTransport: BatchTransport {
    package var server: URL
    private let token: String
    package var gzip: Bool
    package var timeout: Duration
    private let session: URLSession

    /// - Parameters:
    ///   - server: the base URL; the batch goes to `<server>/v1/batches`.
    ///   - token: the device token (sent as `Authorization: Bearer`; never logged).
    ///   - gzip: compress bodies (`Content-Encoding: gzip`).
    ///   - timeout: the whole request's limit; an upload never stays in flight longer.
    package init(
        server: URL, token: String, gzip: Bool = true, timeout: Duration = .seconds(30),
        session: URLSession = .shared
    ) {
        self.server = server
        self.token = token
        self.gzip = gzip
        self.timeout = timeout
        self.session = session
    }

    package func send(_ batch: BatchRequest) async -> UploadOutcome {
        let request: URLRequest
        do {
            request = try batch.urlRequest(server: server, token: token, gzip: gzip, timeout: timeout)
        } catch {
            return .unexpectedResponse(message: "could not encode the batch: \(error)")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            return UploadOutcome(
                transportError: error, message: "\(request.url?.absoluteString ?? "?"): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            return .unexpectedResponse(message: "not an HTTP response")
        }
        return Self.outcome(
            status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }

    /// Maps a status and body to an outcome (separate so it is tested without a network).
    package static func outcome(status: Int, body: Data, retryAfter: String?) -> UploadOutcome {
        UploadOutcome(httpStatus: status, body: body, retryAfter: retryAfter)
    }

    /// The server's `{"error": …}` text, or the start of the body.
    static func message(_ body: Data) -> String { UploadOutcome.serverMessage(body) }
}
