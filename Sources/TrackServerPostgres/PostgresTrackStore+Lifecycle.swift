public import BackgroundCore
import Logging
import PostgresNIO
public import TrackServer

/// Retention periods, the sweep and erasure (``RetentionStore``).
extension PostgresTrackStore: RetentionStore {
    static let sharesRetentionStatements = [
        """
        CREATE TABLE share_link (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            deviceid BIGINT NOT NULL REFERENCES device(id),
            secrethash TEXT NOT NULL UNIQUE,
            fromms BIGINT,
            toms BIGINT,
            createdby TEXT NOT NULL,
            createdat BIGINT NOT NULL,
            expiresat BIGINT NOT NULL,
            revokedat BIGINT,
            views BIGINT NOT NULL DEFAULT 0,
            lastviewedat BIGINT
        )
        """,
        "CREATE INDEX share_link_device ON share_link (deviceid)",
        "CREATE INDEX event_device_time ON event (deviceid, receivedat)",
        "ALTER TABLE device ADD COLUMN retentionms BIGINT",
    ]

    public func setRetention(device: String, _ retention: Duration?) async throws -> Bool {
        let milliseconds = retention.map(\.wholeMilliseconds)
        return try await !rows("UPDATE device SET retention_ms = \(milliseconds) WHERE name = \(device) RETURNING id")
            .isEmpty
    }

    public func retentions() async throws -> [String: Duration] {
        var found: [String: Duration] = [:]
        for row in try await rows("SELECT name, retention_ms FROM device WHERE retention_ms IS NOT NULL") {
            let (name, milliseconds) = try row.decode((String, Int64).self)
            found[name] = .milliseconds(milliseconds)
        }
        return found
    }

    public func sweep(device: String, before: Instant, limit: Int) async throws -> [String: Int] {
        try await transaction { connection in
            guard let deviceID = try await Self.anyDeviceID(connection, device, logger: logger) else { return [:] }
            var deleted: [String: Int] = [:]
            for aged in DeviceData.aged {
                let table = aged.table.lowercased()
                let time = aged.time.lowercased()
                let key = aged.key.lowercased()
                var binds = PostgresBindings()
                binds.append(deviceID)
                binds.append(before.ms)
                binds.append(Int64(max(0, limit)))
                let gone = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            DELETE FROM \(table) WHERE device_id = $1 AND \(key) IN (
                                SELECT \(key) FROM \(table) WHERE device_id = $1 AND \(time) < $2 ORDER BY \(time) LIMIT $3)
                            RETURNING 1
                            """, binds: binds),
                    logger: logger
                ).collect().count
                deleted[aged.table] = gone
                if let tally = aged.tally?.lowercased(), gone > 0 {
                    var tallyBinds = PostgresBindings()
                    tallyBinds.append(Int64(gone))
                    tallyBinds.append(deviceID)
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: "UPDATE device SET \(tally) = GREATEST(0, \(tally) - $1) WHERE id = $2",
                            binds: tallyBinds),
                        logger: logger)
                }
            }
            return deleted
        }
    }

    public func deviceRowCounts(device: String) async throws -> [String: Int] {
        try await transaction { connection in
            try await Self.rowCounts(connection, device: device, logger: logger) ?? [:]
        }
    }

    public func eraseDevice(named name: String) async throws -> [String: Int]? {
        try await transaction { connection in
            guard let counts = try await Self.rowCounts(connection, device: name, logger: logger),
                let deviceID = try await Self.anyDeviceID(connection, name, logger: logger)
            else { return nil }
            for table in DeviceData.tables {
                var binds = PostgresBindings()
                binds.append(deviceID)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(table.lowercased()) WHERE device_id = $1", binds: binds),
                    logger: logger)
            }
            var binds = PostgresBindings()
            binds.append(name)
            try await connection.query(
                PostgresQuery(unsafeSQL: "DELETE FROM alert_outbox WHERE \(Self.outboxNames)", binds: binds),
                logger: logger)
            try await connection.query("DELETE FROM device WHERE id = \(deviceID)", logger: logger)
            return counts
        }
    }

    /// Queued alerts about the device: their JSON's `device` (the outbox holds only JSON this
    /// server wrote).
    static let outboxNames = "(json::jsonb ->> 'device') = $1"

    /// The id of the device of that name, revoked or not.
    static func anyDeviceID(_ connection: PostgresConnection, _ name: String, logger: Logger) async throws -> Int64? {
        try await connection.query("SELECT id FROM device WHERE name = \(name)", logger: logger).collect().first?
            .decode(Int64.self)
    }

    static func rowCounts(_ connection: PostgresConnection, device: String, logger: Logger) async throws
        -> [String: Int]?
    {
        guard let deviceID = try await anyDeviceID(connection, device, logger: logger) else { return nil }
        var counts: [String: Int] = [DeviceData.deviceRow: 1]
        for table in DeviceData.tables {
            var binds = PostgresBindings()
            binds.append(deviceID)
            counts[table] = Int(
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT COUNT(*)::BIGINT FROM \(table.lowercased()) WHERE device_id = $1",
                        binds: binds),
                    logger: logger
                ).collect().first?.decode(Int64.self) ?? 0)
        }
        var binds = PostgresBindings()
        binds.append(device)
        counts[DeviceData.alertOutbox] = Int(
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "SELECT COUNT(*)::BIGINT FROM alert_outbox WHERE \(outboxNames)", binds: binds),
                logger: logger
            ).collect().first?.decode(Int64.self) ?? 0)
        return counts
    }
}

extension PostgresTrackStore {
    // Inspection for the erasure test: every table of the schema, not only the known ones.

    /// The id of the device of that name, revoked or not.
    package func anyDeviceID(named name: String) async throws -> Int64? {
        try await rows("SELECT id FROM device WHERE name = \(name)").first?.decode(Int64.self)
    }

    /// Every table that has a `device_id` column.
    package func tablesWithDeviceColumn() async throws -> [String] {
        try await schema().filter { table in table.value.contains { $0.name == "device_id" } }.keys.sorted()
    }

    /// Per table of the whole schema, the rows whose `device_id` is `deviceID` or whose text
    /// mentions `name`; tables without any are left out.
    package func deviceTraces(deviceID: Int64, name: String) async throws -> [String: Int] {
        var found: [String: Int] = [:]
        for (table, columns) in try await schema() {
            var conditions: [String] = []
            for column in columns {
                if column.name == "device_id" {
                    conditions.append("\"\(column.name)\" = $1")
                } else if column.type == "text" {
                    conditions.append("strpos(\"\(column.name)\", $2) > 0")
                }
            }
            guard !conditions.isEmpty else { continue }
            var binds = PostgresBindings()
            binds.append(deviceID)
            binds.append(name)
            let count =
                try await rows(
                    PostgresQuery(
                        unsafeSQL: "SELECT COUNT(*)::BIGINT FROM \"\(table)\" WHERE ("
                            + conditions.joined(separator: " OR ")
                            // Both parameters are bound whichever columns the table has.
                            + ") AND $1::BIGINT IS NOT NULL AND $2::TEXT IS NOT NULL",
                        binds: binds)
                ).first?.decode(Int64.self) ?? 0
            if count > 0 { found[table] = Int(count) }
        }
        return found
    }

    private func schema() async throws -> [String: [(name: String, type: String)]] {
        var tables: [String: [(name: String, type: String)]] = [:]
        for row in try await rows(
            """
            SELECT c.table_name::TEXT, c.column_name::TEXT, c.data_type::TEXT FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            """)
        {
            let (table, column, type) = try row.decode((String, String, String).self)
            tables[table, default: []].append((name: column, type: type))
        }
        return tables
    }
}
