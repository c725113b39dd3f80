import BackgroundCore
import GRDB
import PostgresNIO
import Testing
import TrackServer

@testable import TrackServerPostgres

/// Issue 26: the server's columns renamed to snake_case (SQLite `v12-snake-case-columns`,
/// PostgreSQL version 9) on a database of the schema before, holding a row in every table: every
/// row is still there with every value, no camelCase column is left, and the store reads them.
enum OldSchemaRows {
    /// The tables of the schema before the rename (every table the store has).
    static let tables = [
        "device", "operator", "session", "sample", "event", "alert_state", "alert_outbox", "rejected_point",
        "timeline_entry", "timeline_state", "gap_interval", "detail_pending", "detail_rules", "share_link",
        "import_job",
    ]

    /// Rows in every table, in the old column names (PostgreSQL folds them to its lowercase ones);
    /// `blob` is the store's literal for the bytes 01 02.
    static func statements(blob: String) -> [String] {
        let a = "(SELECT id FROM device WHERE name = 'a')"
        return [
            """
            INSERT INTO device (name, tokenHash, createdAt, revokedAt, lastSeenAt, silentAfterMs, sampleCount,
                rejectedCount, owntracksKey, retentionMs)
            VALUES ('a', 'ha', 1, NULL, 2, 600000, 1, 1, \(blob), 86400000),
                ('b', 'hb', 3, 4, 5, NULL, 0, 0, NULL, NULL)
            """,
            "INSERT INTO operator (name, tokenHash, createdAt, revokedAt) VALUES ('ops', 'ho', 1, 9)",
            "INSERT INTO session (tokenHash, deviceId, createdAt, expiresAt, revokedAt) VALUES ('hs', \(a), 1, 100, NULL)",
            """
            INSERT INTO sample (deviceId, key, sampleId, seq, t, lat, lon, acc, alt, speed, course, battery, charging,
                trigger, state, source, receivedAt, drawLevel, flag, segmentStart)
            VALUES (\(a), 'k1', 's1', 1, 1000, 52.5, 13.4, 5, 30, 1.5, 90, 0.75, TRUE, 'timer', 'background',
                'native', 2000, 3, 0, TRUE)
            """,
            "INSERT INTO event (deviceId, type, json, receivedAt) VALUES (\(a), 'launch', '{}', 3000)",
            "INSERT INTO alert_state (deviceId, silentSince) VALUES (\(a), 4000)",
            """
            INSERT INTO alert_outbox (target, json, createdAt, attempts, nextAttemptAt, lastError)
            VALUES ('webhook http://x', '{"device":"a"}', 1, 2, 5000, 'refused')
            """,
            """
            INSERT INTO rejected_point (deviceId, source, reason, raw, receivedAt)
            VALUES (\(a), 'owntracks', 'encrypted', 'xyz', 6000)
            """,
            """
            INSERT INTO timeline_entry (deviceId, kind, startAt, endAt, latitude, longitude, endLatitude, endLongitude,
                radius, distance, sampleCount, inferred, mode)
            VALUES (\(a), 'trip', 1000, 2000, 52.5, 13.4, 52.6, 13.5, NULL, 1200, 3, FALSE, 'walk')
            """,
            "INSERT INTO timeline_state (deviceId, builder) VALUES (\(a), '{}')",
            """
            INSERT INTO gap_interval (deviceId, gapId, start, "end", reason, detail, receivedAt)
            VALUES (\(a), 'g1', 100, 200, 'killed', 'by the user', 7000)
            """,
            "INSERT INTO detail_pending (deviceId, day, version) VALUES (\(a), 0, 2)",
            "INSERT INTO detail_rules (id, fingerprint) VALUES (1, 'f')",
            """
            INSERT INTO share_link (deviceId, secretHash, fromMs, toMs, createdBy, createdAt, expiresAt, revokedAt,
                views, lastViewedAt)
            VALUES (\(a), 'sh', 0, 1000, 'cli', 1, 2000, NULL, 3, 1500)
            """,
            """
            INSERT INTO import_job (deviceId, fingerprint, format, records, bytes, points, added, duplicates, rejected,
                finished, updatedAt)
            VALUES (\(a), 'fp', 'gpx', 10, 100, 10, 9, 1, 0, TRUE, 8000)
            """,
        ]
    }

    /// Every name is SQL's snake_case: no capital letter (SQLite keeps the case it was given) and,
    /// on PostgreSQL, no name from the list that only folding made lowercase.
    static func isSnakeCase(_ column: String) -> Bool {
        column == column.lowercased()
            && !SnakeCaseColumns.renamed.contains { $0.columns.contains { $0.lowercased() == column } }
    }

    /// What the store reads back from the migrated rows, the same on both stores.
    static func expectReadable(_ store: some TrackStore) async throws {
        let devices = try await store.devices()
        #expect(devices.map(\.name) == ["a", "b"])
        #expect(devices.first?.sampleCount == 1 && devices.first?.rejectedCount == 1)
        #expect(devices.first?.silentSince == Instant(milliseconds: 4000))
        #expect(devices.last?.revokedAt == Instant(milliseconds: 4))
        let samples = try await store.samples(
            device: "a", from: Instant(milliseconds: 0), to: Instant(milliseconds: 10_000), limit: nil)
        #expect(samples.map(\.key) == ["k1"])
        #expect(samples.first?.id == "s1" && samples.first?.battery == 0.75 && samples.first?.charging == true)
        #expect(
            try await store.owner(ofTokenHash: "hs", at: Instant(milliseconds: 50))
                == .session(device: "a", tokenHash: "hs"))
        #expect(try await store.deviceRowCounts(device: "a").values.reduce(0, +) >= 11)
    }
}

@Suite("Snake-case columns: SQLite v12-snake-case-columns keeps every row (issue 26)")
struct SQLiteSnakeCaseMigrationTests {
    @Test func aDatabaseOfV11KeepsEveryRowOfEveryTable() async throws {
        let queue = try DatabaseQueue()
        try SQLiteTrackStore.migrator.migrate(queue, upTo: "v11-imports")
        let before = try await queue.write { db in
            for statement in OldSchemaRows.statements(blob: "X'0102'") { try db.execute(sql: statement) }
            return try Self.snapshot(db)
        }
        #expect(before.keys.sorted() == OldSchemaRows.tables.sorted(), "a row in every table of v11")
        #expect(before.values.allSatisfy { !$0.isEmpty })
        // Up to v12 only: later migrations add columns and tables of their own.
        try SQLiteTrackStore.migrator.migrate(queue, upTo: "v12-snake-case-columns")
        let after = try await queue.read { db in try Self.snapshot(db) }
        #expect(after == before, "every row, every value, in the same column order")
        let store = try SQLiteTrackStore(writer: queue)
        let columns = try await queue.read { db in
            try OldSchemaRows.tables.flatMap { table in try db.columns(in: table).map(\.name) }
        }
        #expect(columns.filter { !OldSchemaRows.isSnakeCase($0) }.isEmpty)
        #expect(columns.contains("device_id") && columns.contains("received_at"))
        try await OldSchemaRows.expectReadable(store)
        let indexes = try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }
        #expect(indexes.count >= 8 && indexes.allSatisfy { !$0.contains("deviceId") }, "\(indexes)")
    }

    /// Each table's rows, ordered, as text (positionally: the names change, the values must not).
    static func snapshot(_ db: Database) throws -> [String: [String]] {
        let tables = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM sqlite_master WHERE type = 'table'
                AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                """)
        var result: [String: [String]] = [:]
        for table in tables {
            result[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2").map { row in
                row.databaseValues.map(\.description).joined(separator: "|")
            }
        }
        return result
    }
}

@Suite("Snake-case columns: PostgreSQL version 9 keeps every row (issue 26)")
struct PostgresSnakeCaseMigrationTests {
    @Test(.postgres) func aDatabaseOfVersion8KeepsEveryRowOfEveryTable() async throws {
        let configuration = try PostgresTestDatabase.freshConfiguration()
        let logger = PostgresTestDatabase.logger
        try await PostgresTestDatabase.withSchema(configuration) {
            try await PostgresTrackStore.migrate(configuration, logger: logger, upTo: 8)
            var before: [String: [String]] = [:]
            try await PostgresTrackStore.withConnection(configuration, logger: logger) { connection in
                for statement in OldSchemaRows.statements(blob: "decode('0102', 'hex')") {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                before = try await Self.snapshot { sql in
                    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
                }
            }
            #expect(before.keys.sorted() == OldSchemaRows.tables.sorted(), "a row in every table of version 8")
            #expect(before.values.allSatisfy { !$0.isEmpty })
            // Version 9 renamed the columns; later versions add to them (10: the devices' zones), so
            // the rows are compared at 9 and read through the store at the newest version.
            try await PostgresTrackStore.migrate(configuration, logger: logger, upTo: 9)
            try await PostgresTrackStore.withConnection(configuration, logger: logger) { connection in
                let query = { (sql: String) in
                    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
                }
                let after = try await Self.snapshot(query)
                #expect(after == before, "every row, every value, in the same column order")
                let columns = try await query(
                    """
                    SELECT column_name::text FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name <> 'schema_version'
                    """
                ).map { try $0.decode(String.self) }
                #expect(columns.filter { !OldSchemaRows.isSnakeCase($0) }.isEmpty)
                #expect(columns.contains("device_id") && columns.contains("received_at"))
                let version = try await query("SELECT max(version) FROM schema_version").map {
                    try $0.decode(Int64.self)
                }
                #expect(version == [9])
            }
            try await PostgresTrackStore.withStore(configuration, logger: logger) { store in
                try await OldSchemaRows.expectReadable(store)
            }
        }
    }

    /// Each table's rows, ordered, as PostgreSQL's row text (positional, without column names).
    static func snapshot(_ query: (String) async throws -> [PostgresRow]) async throws -> [String: [String]] {
        let tables = try await query(
            """
            SELECT table_name::text FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_name <> 'schema_version'
            """
        ).map { try $0.decode(String.self) }
        var result: [String: [String]] = [:]
        for table in tables {
            result[table] = try await query("SELECT t::text FROM \(table) t ORDER BY 1").map {
                try $0.decode(String.self)
            }
        }
        return result
    }
}
