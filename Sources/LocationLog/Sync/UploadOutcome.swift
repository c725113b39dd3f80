import BackgroundCore

/// How one upload attempt ended, in the sync machine's terms (docs/protocol.md §Acknowledgement).
public enum UploadOutcome: Hashable, Sendable {
    /// `200`: the server's per-sample answer.
    case acknowledged(BatchAcknowledgement)
    /// `400`: the server could not read the body as a whole.
    case badRequest(message: String)
    /// `413`: the body is too large; the batch is halved.
    case tooLarge
    /// `401` / `403`: the token is wrong, expired or revoked.
    case unauthorized(status: Int, message: String)
    /// `429`, optionally with `Retry-After`.
    case rateLimited(retryAfter: Duration?)
    /// `5xx`.
    case serverError(status: Int, message: String)
    /// Any other `4xx`, e.g. 404 for a wrong server URL.
    case clientError(status: Int, message: String)
    /// Any other status, or a `200` whose body is not a batch response.
    case unexpectedResponse(message: String)
    /// No HTTP answer: DNS, connect, TLS, timeout, connection lost (the phone had a network but
    /// the server did not answer on it).
    case networkError(message: String)
    /// No HTTP answer because the phone had no network at all (`URLError.notConnectedToInternet`,
    /// `.dataNotAllowed`, `.internationalRoamingOff`): the sync machine treats it as a network
    /// error; only the upload delay's reason differs.
    case noNetwork(message: String)

    /// A one-line description for logs.
    public var summary: String {
        switch self {
        case .acknowledged(let ack):
            return "acknowledged \(ack.stored.count) stored, \(ack.rejected.count) rejected"
        case .badRequest(let message): return "HTTP 400 (server could not read the batch): \(message)"
        case .tooLarge: return "HTTP 413 (batch too large)"
        case .unauthorized(let status, let message): return "HTTP \(status) (token refused): \(message)"
        case .rateLimited(let retryAfter):
            return "HTTP 429 (rate limited)" + (retryAfter.map { ", Retry-After \(Int($0.seconds)) s" } ?? "")
        case .serverError(let status, let message): return "HTTP \(status) (server error): \(message)"
        case .clientError(let status, let message): return "HTTP \(status): \(message)"
        case .unexpectedResponse(let message): return "unexpected response: \(message)"
        case .networkError(let message): return "network error: \(message)"
        case .noNetwork(let message): return "no network: \(message)"
        }
    }
}
