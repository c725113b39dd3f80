public import BackgroundCore
import GRDB

/// Web sessions (``SessionStore``).
extension SQLiteTrackStore: SessionStore {
    public func createSession(device: String, tokenHash: String, expiresAt: Instant, at now: Instant) async throws {
        try await writer.write { db in
            guard let deviceID = try Self.deviceID(db, device) else { throw TrackStoreError.unknownDevice(device) }
            try db.execute(
                sql: "INSERT INTO session (token_hash, device_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, deviceID, now.milliseconds, expiresAt.milliseconds]
            )
            try Self.markSeen(db, deviceID: deviceID, at: now.milliseconds)
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT d.name, s.expires_at, s.revoked_at FROM session s JOIN device d ON d.id = s.device_id
                    WHERE s.token_hash = ?
                    """,
                arguments: [tokenHash]
            ).map { row in
                SessionRecord(
                    device: row[0],
                    expiresAt: Instant(milliseconds: row[1]),
                    revokedAt: (row[2] as Int64?).map(Instant.init(milliseconds:))
                )
            }
        }
    }

    public func extendSession(tokenHash: String, to expiresAt: Instant, at now: Instant) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE session SET expires_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                arguments: [expiresAt.milliseconds, tokenHash]
            )
            try db.execute(
                sql:
                    "UPDATE device SET last_seen_at = ? WHERE id = (SELECT device_id FROM session WHERE token_hash = ?)",
                arguments: [now.milliseconds, tokenHash]
            )
        }
    }

    public func revokeSession(tokenHash: String, at now: Instant) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE session SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                arguments: [now.milliseconds, tokenHash]
            )
        }
    }
}
