public import BackgroundCore
import Foundation
import GRDB

/// Quarantined points and non-location events (``IngestLogStore``).
extension SQLiteTrackStore: IngestLogStore {
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

    public func recordEvent(device: String, type: String, json: String, at now: Instant) async throws {
        try await writer.write { db in
            guard let deviceID = try Self.deviceID(db, device) else { throw TrackStoreError.unknownDevice(device) }
            try db.execute(
                sql: "INSERT INTO event (device_id, type, json, received_at) VALUES (?, ?, ?, ?)",
                arguments: [deviceID, type, json, now.milliseconds]
            )
            try Self.markSeen(db, deviceID: deviceID, at: now.milliseconds)
        }
    }

    public func eventCount(device: String) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM event e JOIN device d ON d.id = e.device_id WHERE d.name = ?",
                arguments: [device]
            ) ?? 0
        }
    }
}
