public import Foundation
public import LocationLog

#if canImport(FoundationNetworking)
    // On Linux URLSession lives in FoundationNetworking; Foundation re-exports it on Apple platforms.
    public import FoundationNetworking
#endif

/// `POST /v1/batches` over URLSession, with a bearer token and an optional gzip body.
///
/// ```swift
/// let transport = URLSessionBatchTransport(server: URL(string: "http://localhost:8080")!, token: token)
/// ```
public struct URLSessionBatchTransport: BatchTransport {
    public var server: URL
    private let token: String
    public var gzip: Bool
    public var timeout: Duration
    private let session: URLSession

    /// - Parameters:
    ///   - server: the base URL; the batch goes to `<server>/v1/batches`.
    ///   - token: the device token (sent as `Authorization: Bearer`; never logged).
    ///   - gzip: compress bodies (`Content-Encoding: gzip`).
    ///   - timeout: the whole request's limit; an upload never stays in flight longer.
    public init(
        server: URL, token: String, gzip: Bool = true, timeout: Duration = .seconds(30),
        session: URLSession = .shared
    ) {
        self.server = server
        self.token = token
        self.gzip = gzip
        self.timeout = timeout
        self.session = session
    }

    public func send(_ batch: BatchRequest) async -> UploadOutcome {
        var request = URLRequest(url: server.appendingPathComponent("v1").appendingPathComponent("batches"))
        request.httpMethod = "POST"
        request.timeoutInterval = Double(timeout.components.seconds)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        do {
            var body = try JSONEncoder().encode(batch)
            if gzip {
                body = try Gzip.compress(body)
                request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
            }
            request.httpBody = body
        } catch {
            return .unexpectedResponse(message: "could not encode the batch: \(error)")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            return .networkError(message: "\(request.url?.absoluteString ?? "?"): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            return .unexpectedResponse(message: "not an HTTP response")
        }
        return Self.outcome(
            status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }

    /// Maps a status and body to an outcome (separate so it is tested without a network).
    public static func outcome(status: Int, body: Data, retryAfter: String?) -> UploadOutcome {
        let message = Self.message(body)
        switch status {
        case 200:
            // The error shape has no batch fields, so the lenient batch reader would take it for
            // an empty success.
            if let error = try? JSONDecoder().decode(ErrorResponse.self, from: body) {
                return .unexpectedResponse(message: "HTTP 200 with an error body: \(error.error)")
            }
            guard let response = try? JSONDecoder().decode(BatchResponse.self, from: body), response.result == "ok"
            else {
                return .unexpectedResponse(message: "HTTP 200 without a batch response: \(message)")
            }
            return .acknowledged(response.acknowledgement)
        case 400: return .badRequest(message: message)
        case 401, 403: return .unauthorized(status: status, message: message)
        case 413: return .tooLarge
        case 429: return .rateLimited(retryAfter: retryAfter.flatMap(Int64.init).map { .seconds($0) })
        case 500...599: return .serverError(status: status, message: message)
        case 402...499: return .clientError(status: status, message: message)
        default: return .unexpectedResponse(message: "HTTP \(status): \(message)")
        }
    }

    /// The server's `{"error": …}` text, or the start of the body.
    static func message(_ body: Data) -> String {
        // Bounded like the raw-body case: the text goes into the diagnostics log and notifications.
        if let error = try? JSONDecoder().decode(ErrorResponse.self, from: body) {
            return String(error.error.prefix(BatchResponse.maximumReasonLength))
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return text.isEmpty ? "(empty body)" : text
    }
}
