public import BackgroundCore
import PostgresNIO
public import TrackServer

/// The zones each device reported and the operator's override (``TimeZoneStore``).
extension PostgresTrackStore: TimeZoneStore {
    /// Migration 10, `v10-time-zones` (SQLite's `v13-time-zones`).
    static let timeZoneStatements = [
        "ALTER TABLE device ADD COLUMN time_zone_override TEXT",
        """
        CREATE TABLE device_time_zone (
            device_id BIGINT NOT NULL REFERENCES device(id),
            since BIGINT NOT NULL,
            zone TEXT NOT NULL,
            PRIMARY KEY (device_id, since)
        )
        """,
    ]

    public func timeZones(device: String) async throws -> DeviceTimeZones {
        guard let row = try await rows("SELECT id, time_zone_override FROM device WHERE name = \(device)").first
        else { return DeviceTimeZones() }
        let (id, override) = try row.decode((Int64, String?).self)
        var changes: [DeviceTimeZones.Change] = []
        for row in try await rows("SELECT since, zone FROM device_time_zone WHERE device_id = \(id) ORDER BY since") {
            let (since, zone) = try row.decode((Int64, String).self)
            changes.append(.init(since: Instant(milliseconds: since), zone: zone))
        }
        return DeviceTimeZones(override: override, reported: changes)
    }

    public func noteTimeZone(device: String, zone: String, since: Instant) async throws {
        try await transaction { connection in
            guard let id = try await Self.anyDeviceID(connection, device, logger: logger) else { return }
            let current = try await connection.query(
                """
                SELECT zone FROM device_time_zone WHERE device_id = \(id) AND since <= \(since.ms)
                ORDER BY since DESC LIMIT 1
                """, logger: logger
            ).collect().first?.decode(String.self)
            guard current != zone else { return }
            try await connection.query(
                """
                INSERT INTO device_time_zone (device_id, since, zone) VALUES (\(id), \(since.ms), \(zone))
                ON CONFLICT (device_id, since) DO UPDATE SET zone = EXCLUDED.zone
                """, logger: logger)
        }
    }

    public func setTimeZoneOverride(device: String, _ zone: String?) async throws -> Bool {
        try await !rows("UPDATE device SET time_zone_override = \(zone) WHERE name = \(device) RETURNING id").isEmpty
    }
}
