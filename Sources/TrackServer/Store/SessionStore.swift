public import BackgroundCore

/// Web sessions (`POST /v1/sessions`): a device's short-lived tokens, extended by its heartbeats.
public protocol SessionStore: Sendable {
    func createSession(device: String, tokenHash: String, expiresAt: Instant, at now: Instant) async throws
    /// The session with this token hash, live or not; `nil` if there never was one.
    func session(tokenHash: String) async throws -> SessionRecord?
    /// Moves the expiry of a live session and records the heartbeat as "seen".
    func extendSession(tokenHash: String, to expiresAt: Instant, at now: Instant) async throws
    func revokeSession(tokenHash: String, at now: Instant) async throws
}
