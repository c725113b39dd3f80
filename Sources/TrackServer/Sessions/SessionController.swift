import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// `POST /v1/sessions` body: the device name and its token from `bgtrack device add`.
struct LoginRequest: Decodable {
    var device: String
    var token: String
}

/// A new session (docs/protocol.md §Sessions).
struct SessionResponse: Encodable {
    var status = "active"
    var device: String
    var token: String
    var expires_at: Int64
}

/// The heartbeat answer: `{"status":"active","expires_at":…}`.
struct HeartbeatResponse: Encodable {
    var status = "active"
    var expires_at: Int64
}

/// Sessions (docs/protocol.md §Sessions): a device trades its token for a short-lived one, keeps
/// it alive with heartbeats and logs it out.
struct SessionController: Sendable {
    let sessions: any SessionStore
    let auth: Authenticator
    let clock: ServerClock
    let sessionTTL: Duration
    let bodyReader: BodyReader
    /// Forgotten at a log-out: the single-point lane asks the store again.
    let writerCache: WriterCache

    init(_ environment: TrackServerEnvironment) {
        sessions = environment.store
        auth = environment.auth
        clock = environment.clock
        sessionTTL = environment.configuration.sessionTTL
        bodyReader = environment.bodyReader
        writerCache = environment.writerCache
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.post("/v1/sessions", use: login)
        router.post("/v1/sessions/heartbeat", use: heartbeat)
        router.delete("/v1/sessions", use: logout)
    }

    /// `POST /v1/sessions`: trades the device's own token for a session token with a TTL.
    func login(_ request: Request, context: some RequestContext) async throws -> Response {
        let bytes = try await bodyReader.read(request)
        try JSONBody.checkDepth(bytes)
        guard let login = try? JSONDecoder().decode(LoginRequest.self, from: Data(bytes)) else {
            throw APIError(.badRequest, "the body must be {\"device\": \"<name>\", \"token\": \"<device token>\"}")
        }
        guard case .device(let name) = try await auth.owner(token: login.token), name == login.device else {
            throw APIError.unauthorized(
                "device name and token do not match a registered device; check both or ask the operator")
        }
        let now = clock.now
        let token = Tokens.mint(prefix: "bgs")
        let expiresAt = now + sessionTTL
        try await sessions.createSession(device: name, tokenHash: Tokens.hash(token), expiresAt: expiresAt, at: now)
        context.logger.info("session created", metadata: ["device": "\(name)"])
        return try Response.json(
            SessionResponse(device: name, token: token, expires_at: expiresAt.milliseconds), status: .created)
    }

    /// `POST /v1/sessions/heartbeat`: extends a live session; 401 once it expired or was revoked.
    func heartbeat(_ request: Request, context: some RequestContext) async throws -> Response {
        let owner = try await auth.owner(token: Authenticator.bearer(request, allowQuery: false))
        guard case .session(let device, let hash) = owner else {
            throw APIError.unauthorized("heartbeats need a session token; log in with POST /v1/sessions first")
        }
        let now = clock.now
        let expiresAt = now + sessionTTL
        try await sessions.extendSession(tokenHash: hash, to: expiresAt, at: now)
        context.logger.debug("heartbeat", metadata: ["device": "\(device)"])
        return try Response.json(HeartbeatResponse(expires_at: expiresAt.milliseconds))
    }

    /// `DELETE /v1/sessions`: logs the session out; its token answers 401 from now on.
    func logout(_ request: Request, context: some RequestContext) async throws -> Response {
        let owner = try await auth.owner(token: Authenticator.bearer(request, allowQuery: false))
        guard case .session(let device, let hash) = owner else {
            throw APIError(.badRequest, "only a session token can log out; device tokens are revoked by the operator")
        }
        try await sessions.revokeSession(tokenHash: hash, at: clock.now)
        writerCache.forgetAll()
        context.logger.info("session revoked", metadata: ["device": "\(device)"])
        return Response(status: .noContent)
    }
}
