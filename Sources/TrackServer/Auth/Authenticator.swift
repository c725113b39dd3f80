import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Turns the credentials of a request into a ``TokenOwner`` and enforces who may touch what:
/// a device token (or its session token) reads and writes only its own device; an operator token
/// reads every device and writes none.
struct Authenticator: Sendable {
    var store: any TrackStore
    var clock: ServerClock

    /// The bearer token from `Authorization: Bearer …`, else from `?token=` when allowed.
    static func bearer(_ request: Request, allowQuery: Bool) -> String? {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        return allowQuery ? request.uri.queryParameters.get("token") : nil
    }

    /// User and password of `Authorization: Basic …`.
    static func basic(_ request: Request) -> (user: String, password: String)? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    func owner(token: String?) async throws -> TokenOwner {
        guard let token, !token.isEmpty else {
            throw APIError.unauthorized(
                "no token: send Authorization: Bearer <token> (from `bgtrack device add NAME` or POST /v1/sessions)")
        }
        guard let owner = try await store.owner(ofTokenHash: Tokens.hash(token), at: clock.now) else {
            throw APIError.unauthorized(
                "the token is unknown, revoked or its session expired; log in again or ask the operator for a new one")
        }
        return owner
    }

    /// The device a token may write to. Operators may not write.
    func writer(token: String?) async throws -> String {
        switch try await owner(token: token) {
        case .device(let name), .session(let name, _): return name
        case .operator:
            throw APIError(
                .forbidden, "an operator token can read every device but upload for none; use the device's token")
        }
    }

    /// Checks the token may read `device`.
    func requireRead(token: String?, device: String) async throws -> TokenOwner {
        let owner = try await owner(token: token)
        switch owner {
        case .operator: return owner
        case .device(let name), .session(let name, _):
            guard name == device else {
                throw APIError(
                    .forbidden, "this token belongs to another device; a device token reads only its own track")
            }
            return owner
        }
    }
}
