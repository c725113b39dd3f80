import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Turns the credentials of a request into a ``TokenOwner`` and enforces who may touch what:
/// a device token (or its session token) reads and writes only its own device; an operator token
/// reads every device and writes none.
struct Authenticator: Sendable {
    var store: any DeviceStore
    var clock: ServerClock
    /// Remembers each token ``writer(token:)`` accepted, for the single-point lane.
    var writers: WriterCache? = nil

    /// The device `{id}` a read route names, once the request's token may read it (401/403
    /// otherwise) and it is registered (404 otherwise).
    func readableDevice(_ request: Request, context: some RequestContext) async throws -> DeviceRecord {
        let device = try context.parameters.require("id")
        _ = try await requireRead(token: Self.bearer(request, allowQuery: true), device: device)
        guard let record = try await store.device(named: device) else {
            throw APIError(.notFound, "no device is registered as \"\(device)\"")
        }
        return record
    }

    /// The operator behind the request, else 401/403 (share links and erasure).
    func requireOperator(_ request: Request) async throws -> String {
        guard case .operator(let name) = try await owner(token: Self.bearer(request, allowQuery: false)) else {
            throw APIError(.forbidden, "share links and erasure need an operator token (`bgtrack operator add NAME`)")
        }
        return name
    }

    /// The bearer token from `Authorization: Bearer …`, else from `?token=` when allowed.
    static func bearer(_ request: Request, allowQuery: Bool) -> String? {
        if let header = request.headers[.authorization], let token = credentials(header, scheme: "bearer ") {
            return String(token)
        }
        return allowQuery ? request.uri.queryParameters.get("token") : nil
    }

    /// User and password of `Authorization: Basic …`.
    static func basic(_ request: Request) -> (user: String, password: String)? {
        basic(request.headers)
    }

    /// User and password of `Authorization: Basic …` among `headers`.
    static func basic(_ headers: HTTPFields) -> (user: String, password: String)? {
        basic(authorization: headers[.authorization])
    }

    /// User and password of an `Authorization: Basic …` value.
    static func basic(authorization header: String?) -> (user: String, password: String)? {
        guard let header, let encoded = credentials(header, scheme: "basic "),
            let data = Data(base64Encoded: String(encoded)),
            let text = String(validating: data, as: UTF8.self), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// What follows `scheme` (lowercase, with its space) in an `Authorization` value, without the
    /// spaces and tabs around it; `nil` for another scheme. Byte by byte: every authenticated
    /// request runs it, and Foundation's `lowercased()` and `trimmingCharacters(in:)` cost more
    /// than the rest of reading the credentials.
    static func credentials(_ header: String, scheme: String) -> Substring? {
        let utf8 = header.utf8
        guard utf8.count >= scheme.utf8.count,
            zip(utf8, scheme.utf8).allSatisfy({ $1 == UInt8(ascii: " ") ? $0 == $1 : $0 | 0x20 == $1 })
        else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = utf8.index(utf8.startIndex, offsetBy: scheme.utf8.count)
        var end = utf8.endIndex
        while start < end, isBlank(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isBlank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return Substring(header.utf8[start..<end])
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
        let now = clock.now
        switch try await owner(token: token) {
        case .device(let name), .session(let name, _):
            if let writers, let token { writers.remember(name, tokenHash: Tokens.hash(token), at: now) }
            return name
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
