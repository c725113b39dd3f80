public import BackgroundCore
import Foundation
import GRDB

/// Devices and operators, their tokens and OwnTracks keys (``DeviceStore``).
extension SQLiteTrackStore: DeviceStore {
    public func addDevice(name: String, tokenHash: String, at now: Instant) async throws -> DeviceRecord {
        do {
            try await writer.write { db in
                try db.execute(
                    sql: "INSERT INTO device (name, token_hash, created_at) VALUES (?, ?, ?)",
                    arguments: [name, tokenHash, now.milliseconds]
                )
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw TrackStoreError.duplicateName(name)
        }
        return DeviceRecord(name: name, createdAt: now, revokedAt: nil, lastSeenAt: nil, sampleCount: 0)
    }

    public func addOperator(name: String, tokenHash: String, at now: Instant) async throws {
        do {
            try await writer.write { db in
                try db.execute(
                    sql: "INSERT INTO operator (name, token_hash, created_at) VALUES (?, ?, ?)",
                    arguments: [name, tokenHash, now.milliseconds]
                )
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw TrackStoreError.duplicateName(name)
        }
    }

    public func operators() async throws -> [OperatorRecord] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT name, created_at, revoked_at FROM operator ORDER BY name").map {
                OperatorRecord(
                    name: $0["name"], createdAt: Instant(milliseconds: $0["created_at"]),
                    revokedAt: ($0["revoked_at"] as Int64?).map(Instant.init(milliseconds:)))
            }
        }
    }

    public func revokeOperator(named name: String, at now: Instant) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE operator SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                arguments: [now.milliseconds, name])
            return db.changesCount > 0
        }
    }

    public func devices() async throws -> [DeviceRecord] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: Self.deviceQuery + " ORDER BY d.name").map(Self.device(from:))
        }
    }

    public func device(named name: String) async throws -> DeviceRecord? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: Self.deviceQuery + " WHERE d.name = ?", arguments: [name]).map(Self.device(from:))
        }
    }

    public func revokeDevice(named name: String, at now: Instant) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE device SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                arguments: [now.milliseconds, name]
            )
            let changed = db.changesCount > 0
            try db.execute(
                sql: """
                    UPDATE session SET revoked_at = ?
                    WHERE revoked_at IS NULL AND device_id = (SELECT id FROM device WHERE name = ?)
                    """,
                arguments: [now.milliseconds, name]
            )
            // Its share links end with it (issue 41 item 4): a revoked device shares nothing.
            try db.execute(
                sql: """
                    UPDATE share_link SET revoked_at = ?
                    WHERE revoked_at IS NULL AND device_id = (SELECT id FROM device WHERE name = ?)
                    """,
                arguments: [now.milliseconds, name]
            )
            return changed
        }
    }

    public func owner(ofTokenHash hash: String, at now: Instant) async throws -> TokenOwner? {
        // Every authenticated request runs this: cached statements, compiled once per connection.
        // (GRDB's blocking `read` on the calling thread was tried: it made 16-connection
        // single-point ingest 4× slower, the cooperative threads waiting on the reader queues.)
        try await writer.read { db in
            if let name = try String.fetchOne(
                db.cachedStatement(sql: "SELECT name FROM device WHERE token_hash = ? AND revoked_at IS NULL"),
                arguments: [hash])
            {
                return .device(name)
            }
            if let name = try String.fetchOne(
                db.cachedStatement(sql: "SELECT name FROM operator WHERE token_hash = ? AND revoked_at IS NULL"),
                arguments: [hash])
            {
                return .operator(name)
            }
            let sessionDevice = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT d.name FROM session s JOIN device d ON d.id = s.device_id
                        WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND d.revoked_at IS NULL
                        """),
                arguments: [hash, now.milliseconds]
            )
            return sessionDevice.map { .session(device: $0, tokenHash: hash) }
        }
    }

    public func setOwnTracksKey(device: String, _ key: OwnTracksKey?) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE device SET owntracks_key = ? WHERE name = ?",
                arguments: [key.map { Data($0.bytes) }, device])
            return db.changesCount > 0
        }
    }

    public func ownTracksKey(device: String) async throws -> OwnTracksKey? {
        try await writer.read { db in
            let stored = try Data.fetchOne(
                db.cachedStatement(sql: "SELECT owntracks_key FROM device WHERE name = ?"), arguments: [device])
            return stored.flatMap { OwnTracksKey(bytes: Array($0)) }
        }
    }
}
