public import BackgroundCore
import PostgresNIO
public import TrackServer

/// Web sessions (``SessionStore``).
extension PostgresTrackStore: SessionStore {
    public func createSession(device: String, tokenHash: String, expiresAt: Instant, at now: Instant) async throws {
        try await transaction { connection in
            let deviceID = try await Self.deviceID(connection, device, logger: logger)
            try await connection.query(
                """
                INSERT INTO session (token_hash, device_id, created_at, expires_at)
                VALUES (\(tokenHash), \(deviceID), \(now.ms), \(expiresAt.ms))
                """,
                logger: logger)
            try await connection.query(
                "UPDATE device SET last_seen_at = \(now.ms) WHERE id = \(deviceID)", logger: logger)
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await rows(
            """
            SELECT d.name, s.expires_at, s.revoked_at FROM session s JOIN device d ON d.id = s.device_id
            WHERE s.token_hash = \(tokenHash)
            """
        ).first.map { row in
            let (name, expiresAt, revokedAt) = try row.decode((String, Int64, Int64?).self)
            return SessionRecord(
                device: name, expiresAt: Instant(milliseconds: expiresAt),
                revokedAt: revokedAt.map(Instant.init(milliseconds:)))
        }
    }

    public func extendSession(tokenHash: String, to expiresAt: Instant, at now: Instant) async throws {
        try await transaction { connection in
            try await connection.query(
                "UPDATE session SET expires_at = \(expiresAt.ms) WHERE token_hash = \(tokenHash) AND revoked_at IS NULL",
                logger: logger)
            try await connection.query(
                """
                UPDATE device SET last_seen_at = \(now.ms)
                WHERE id = (SELECT device_id FROM session WHERE token_hash = \(tokenHash))
                """,
                logger: logger)
        }
    }

    public func revokeSession(tokenHash: String, at now: Instant) async throws {
        try await run(
            "UPDATE session SET revoked_at = \(now.ms) WHERE token_hash = \(tokenHash) AND revoked_at IS NULL")
    }
}
