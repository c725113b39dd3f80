public import BackgroundCore
import GRDB

/// Retention periods, the sweep and erasure (``RetentionStore``).
extension SQLiteTrackStore: RetentionStore {
    static let sharesRetentionMigration = """
        CREATE TABLE share_link (
            id INTEGER PRIMARY KEY,
            deviceId INTEGER NOT NULL REFERENCES device(id),
            secretHash TEXT NOT NULL UNIQUE,
            fromMs INTEGER,
            toMs INTEGER,
            createdBy TEXT NOT NULL,
            createdAt INTEGER NOT NULL,
            expiresAt INTEGER NOT NULL,
            revokedAt INTEGER,
            views INTEGER NOT NULL DEFAULT 0,
            lastViewedAt INTEGER
        );
        CREATE INDEX share_link_device ON share_link(deviceId);
        CREATE INDEX event_device_time ON event(deviceId, receivedAt);
        ALTER TABLE device ADD COLUMN retentionMs INTEGER;
        """

    public func setRetention(device: String, _ retention: Duration?) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE device SET retention_ms = ? WHERE name = ?",
                arguments: [retention.map(\.wholeMilliseconds), device])
            return db.changesCount > 0
        }
    }

    public func retentions() async throws -> [String: Duration] {
        try await writer.read { db in
            var found: [String: Duration] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, retention_ms FROM device WHERE retention_ms IS NOT NULL")
            {
                found[row[0] as String] = .milliseconds(row[1] as Int64)
            }
            return found
        }
    }

    public func sweep(device: String, before: Instant, limit: Int) async throws -> [String: Int] {
        try await writer.write { db in
            guard let deviceID = try Self.anyDeviceID(db, device) else { return [:] }
            var deleted: [String: Int] = [:]
            for aged in DeviceData.aged {
                try db.execute(
                    sql: """
                        DELETE FROM \(aged.table) WHERE device_id = ? AND \(aged.key) IN (
                            SELECT \(aged.key) FROM \(aged.table) WHERE device_id = ? AND \(aged.time) < ?
                            ORDER BY \(aged.time) LIMIT ?)
                        """,
                    arguments: [deviceID, deviceID, before.milliseconds, max(0, limit)])
                let count = db.changesCount
                deleted[aged.table] = count
                if let tally = aged.tally, count > 0 {
                    try db.execute(
                        sql: "UPDATE device SET \(tally) = MAX(0, \(tally) - ?) WHERE id = ?",
                        arguments: [count, deviceID])
                }
            }
            return deleted
        }
    }

    public func deviceRowCounts(device: String) async throws -> [String: Int] {
        try await writer.read { db in
            try Self.rowCounts(db, device: device) ?? [:]
        }
    }

    public func eraseDevice(named name: String) async throws -> [String: Int]? {
        try await writer.write { db in
            guard let counts = try Self.rowCounts(db, device: name), let deviceID = try Self.anyDeviceID(db, name)
            else { return nil }
            for table in DeviceData.tables {
                try db.execute(sql: "DELETE FROM \(table) WHERE device_id = ?", arguments: [deviceID])
            }
            try db.execute(sql: "DELETE FROM alert_outbox WHERE \(Self.outboxNames)", arguments: [name])
            try db.execute(sql: "DELETE FROM device WHERE id = ?", arguments: [deviceID])
            return counts
        }
    }

    /// Queued alerts about the device: their JSON's `device`.
    static let outboxNames = "json_valid(json) AND json_extract(json, '$.device') = ?"

    /// The id of the device of that name, revoked or not.
    static func anyDeviceID(_ db: Database, _ name: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [name])
    }

    static func rowCounts(_ db: Database, device: String) throws -> [String: Int]? {
        guard let deviceID = try anyDeviceID(db, device) else { return nil }
        var counts: [String: Int] = [DeviceData.deviceRow: 1]
        for table in DeviceData.tables {
            counts[table] =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE device_id = ?", arguments: [deviceID])
                ?? 0
        }
        counts[DeviceData.alertOutbox] =
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM alert_outbox WHERE \(outboxNames)", arguments: [device])
            ?? 0
        return counts
    }
}

extension SQLiteTrackStore {
    // Inspection for the erasure test: every table of the schema, not only the known ones.

    /// The id of the device of that name, revoked or not.
    package func anyDeviceID(named name: String) async throws -> Int64? {
        try await writer.read { db in try Self.anyDeviceID(db, name) }
    }

    /// Every table that has a `device_id` column.
    package func tablesWithDeviceColumn() async throws -> [String] {
        try await writer.read { db in
            try Self.schema(db).filter { table in table.value.contains { $0.name.lowercased() == "device_id" } }.keys
                .sorted()
        }
    }

    /// Per table of the whole schema, the rows whose `device_id` is `deviceID` or whose text
    /// mentions `name`; tables without any are left out.
    package func deviceTraces(deviceID: Int64, name: String) async throws -> [String: Int] {
        try await writer.read { db in
            var found: [String: Int] = [:]
            for (table, columns) in try Self.schema(db) {
                var conditions: [String] = []
                var arguments: StatementArguments = []
                for column in columns {
                    if column.name.lowercased() == "device_id" {
                        conditions.append("\"\(column.name)\" = ?")
                        arguments += [deviceID]
                    } else if column.type.uppercased().contains("TEXT") {
                        conditions.append("instr(\"\(column.name)\", ?) > 0")
                        arguments += [name]
                    }
                }
                guard !conditions.isEmpty else { continue }
                let count =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM \"\(table)\" WHERE " + conditions.joined(separator: " OR "),
                        arguments: arguments) ?? 0
                if count > 0 { found[table] = count }
            }
            return found
        }
    }

    private static func schema(_ db: Database) throws -> [String: [(name: String, type: String)]] {
        var tables: [String: [(name: String, type: String)]] = [:]
        for table in try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        {
            tables[table] = try Row.fetchAll(db, sql: "PRAGMA table_info(\"\(table)\")").map {
                (name: $0["name"] as String, type: ($0["type"] as String?) ?? "")
            }
        }
        return tables
    }
}
