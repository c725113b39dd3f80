public import BackgroundCore
import Foundation
import GRDB

extension SQLiteTrackStore {
    public func quarantine(
        device: String, source: IngestSource, reason: String, raw: String, at now: Instant
    ) async throws {
        try await writer.write { db in
            guard let id = try Self.deviceID(db, device) else { throw TrackStoreError.unknownDevice(device) }
            try db.execute(
                sql: "INSERT INTO rejected_point (device_id, source, reason, raw, received_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    id, source.rawValue, String(reason.prefix(500)), String(raw.prefix(4096)), now.milliseconds,
                ])
            try db.cachedStatement(
                sql: "UPDATE device SET last_seen_at = ?, rejected_count = rejected_count + 1 WHERE id = ?"
            ).execute(
                arguments: [now.milliseconds, id])
        }
    }

    public func rejectedPoints(device: String, limit: Int) async throws -> [RejectedPoint] {
        try await writer.read { db in
            guard let id = try Self.deviceID(db, device) else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT source, reason, raw, received_at FROM rejected_point WHERE device_id = ?
                    ORDER BY id DESC LIMIT ?
                    """,
                arguments: [id, limit]
            ).map {
                RejectedPoint(source: $0["source"], reason: $0["reason"], raw: $0["raw"], receivedAt: $0["received_at"])
            }
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

    public func setSilentAfter(device: String, _ threshold: Duration?) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE device SET silent_after_ms = ? WHERE name = ?",
                arguments: [threshold.map { $0.components.seconds * 1000 }, device])
            return db.changesCount > 0
        }
    }

    public func recordAlert(
        device: String, silentSince: Instant?, deliveries: [AlertDelivery], at now: Instant
    ) async throws {
        try await writer.write { db in
            guard let id = try Self.deviceID(db, device) else { throw TrackStoreError.unknownDevice(device) }
            if let silentSince {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO alert_state (device_id, silent_since) VALUES (?, ?)",
                    arguments: [id, silentSince.milliseconds])
            } else {
                try db.execute(sql: "DELETE FROM alert_state WHERE device_id = ?", arguments: [id])
            }
            for delivery in deliveries {
                try db.execute(
                    sql: "INSERT INTO alert_outbox (target, json, created_at, next_attempt_at) VALUES (?, ?, ?, ?)",
                    arguments: [delivery.target, delivery.json, now.milliseconds, now.milliseconds])
            }
        }
    }

    public func dueAlerts(at now: Instant, limit: Int) async throws -> [QueuedAlert] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, target, json, attempts FROM alert_outbox WHERE next_attempt_at <= ?
                    ORDER BY id LIMIT ?
                    """,
                arguments: [now.milliseconds, limit]
            ).map {
                QueuedAlert(
                    id: $0["id"], delivery: AlertDelivery(target: $0["target"], json: $0["json"]),
                    attempts: $0["attempts"])
            }
        }
    }

    public func alertDelivered(id: Int64) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM alert_outbox WHERE id = ?", arguments: [id]) }
    }

    public func alertFailed(id: Int64, error: String, retryAt: Instant) async throws {
        try await writer.write { db in
            try db.execute(
                sql:
                    "UPDATE alert_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?",
                arguments: [retryAt.milliseconds, String(error.prefix(500)), id])
        }
    }
}

extension SQLiteTrackStore {
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
