public import BackgroundCore
import GRDB
public import LocationLog

extension SQLiteTrackStore: TimelineStore {
    public func timelineCheckpoint(device: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT builder FROM timeline_state
                    WHERE device_id = (SELECT id FROM device WHERE name = ?)
                    """, arguments: [device])
        }
    }

    public func saveTimeline(device: String, closed: [TimelineEntry], checkpoint: String, replacingFrom: Instant?)
        async throws
    {
        try await writer.write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [device])
            else { throw TrackStoreError.unknownDevice(device) }
            if let replacingFrom {
                try db.execute(
                    sql: "DELETE FROM timeline_entry WHERE device_id = ? AND start_at >= ?",
                    arguments: [id, replacingFrom.milliseconds])
            }
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO timeline_entry (device_id, kind, start_at, end_at, latitude, longitude,
                        end_latitude, end_longitude, radius, distance, sample_count, inferred, mode)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for entry in closed {
                let row = TimelineRow(entry)
                try insert.execute(arguments: [
                    id, row.kind, row.start, row.end, row.latitude, row.longitude, row.endLatitude,
                    row.endLongitude, row.radius, row.distance, row.sampleCount, row.inferred, row.mode,
                ])
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO timeline_state (device_id, builder) VALUES (?, ?)",
                arguments: [id, checkpoint])
        }
    }

    public func timelineEntries(device: String, from: Instant, to: Instant) async throws -> [TimelineEntry] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, start_at, end_at, latitude, longitude, end_latitude, end_longitude, radius, distance,
                        sample_count, inferred, mode
                    FROM timeline_entry
                    WHERE device_id = (SELECT id FROM device WHERE name = ?) AND end_at >= ? AND start_at < ?
                    ORDER BY start_at, end_at
                    """, arguments: [device, from.milliseconds, to.milliseconds])
            return rows.compactMap { row in
                TimelineRow(
                    kind: row[0], start: row[1], end: row[2], latitude: row[3], longitude: row[4],
                    endLatitude: row[5], endLongitude: row[6], radius: row[7], distance: row[8],
                    sampleCount: row[9], inferred: row[10], mode: row[11]
                ).entry
            }
        }
    }
}
