public import BackgroundCore
import GRDB

/// The zones each device reported and the operator's override (``TimeZoneStore``).
extension SQLiteTrackStore: TimeZoneStore {
    /// `v13-time-zones`: a row each time a device's reported zone changed (from its first sample in
    /// that zone), and the operator's zone on the device row.
    static let timeZoneMigration = """
        ALTER TABLE device ADD COLUMN time_zone_override TEXT;
        CREATE TABLE device_time_zone (
            device_id INTEGER NOT NULL REFERENCES device(id),
            since INTEGER NOT NULL,
            zone TEXT NOT NULL,
            PRIMARY KEY (device_id, since)
        ) WITHOUT ROWID;
        """

    public func timeZones(device: String) async throws -> DeviceTimeZones {
        try await writer.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, time_zone_override FROM device WHERE name = ?", arguments: [device])
            else { return DeviceTimeZones() }
            let changes = try Row.fetchAll(
                db, sql: "SELECT since, zone FROM device_time_zone WHERE device_id = ? ORDER BY since",
                arguments: [row[0] as Int64])
            return DeviceTimeZones(
                override: row[1],
                reported: changes.map { .init(since: Instant(milliseconds: $0[0]), zone: $0[1]) })
        }
    }

    public func noteTimeZone(device: String, zone: String, since: Instant) async throws {
        try await writer.write { db in
            guard let id = try Self.deviceID(db, device) else { return }
            let current = try String.fetchOne(
                db,
                sql: "SELECT zone FROM device_time_zone WHERE device_id = ? AND since <= ? ORDER BY since DESC LIMIT 1",
                arguments: [id, since.milliseconds])
            guard current != zone else { return }
            try db.execute(
                sql: "INSERT OR REPLACE INTO device_time_zone (device_id, since, zone) VALUES (?, ?, ?)",
                arguments: [id, since.milliseconds, zone])
        }
    }

    public func setTimeZoneOverride(device: String, _ zone: String?) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE device SET time_zone_override = ? WHERE name = ?", arguments: [zone, device])
            return db.changesCount > 0
        }
    }
}
