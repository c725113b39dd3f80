public import BackgroundCore
import Foundation
import GRDB

/// Per-device silence thresholds and the alert outbox (``AlertStore``).
extension SQLiteTrackStore: AlertStore {
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
