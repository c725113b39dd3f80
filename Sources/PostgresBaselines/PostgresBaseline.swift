import BackgroundCore
package import Logging
package import PostgresNIO
package import TrackServer
package import TrackServerPostgres

/// The raw baselines of `bgtrack-bench postgres`: the store's work written directly on one
/// connection, no server, no parsing, no pool.
///
/// Every shape does what the store does per batch at the same durability: one transaction of
/// `batch` rows into the `sample` table the store's migrations made (same indexes and
/// constraints), then the device's `last_seen_at` update, then `COMMIT`. The payloads (COPY text,
/// bound `INSERT` statements) are built before the clock starts, as the HTTP bodies are.
package enum PostgresBaseline: CaseIterable {
    /// `COPY sample FROM STDIN`: the fastest way in, but without the store's idempotency: a key
    /// already stored fails the whole batch (COPY has no `ON CONFLICT`), and nothing says which
    /// keys were new. The baseline issue 13 names ("≥ 0.4 of COPY").
    case copy
    /// COPY into a temporary staging table, then `INSERT … SELECT … ON CONFLICT DO NOTHING
    /// RETURNING key` into `sample`: COPY doing the store's whole job (dedup and the accepted keys).
    case copyViaStaging
    /// The store's statement until the unnest one: a multi-row `INSERT … VALUES (…), … ON CONFLICT
    /// (device_id, key) DO NOTHING RETURNING key` of 17 binds a row.
    case multiRowInsert
    /// The store's statement (`PostgresTrackStore.insertSQL`): the same `INSERT … ON CONFLICT DO
    /// NOTHING RETURNING key` with one array bind per column (`unnest`).
    case unnestInsert

    package var label: String {
        switch self {
        case .copy: "plain COPY sample FROM STDIN (no dedup)"
        case .copyViaStaging: "COPY into a staging table, INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING"
        case .multiRowInsert: "multi-row INSERT … VALUES … ON CONFLICT DO NOTHING RETURNING (the store's old statement)"
        case .unnestInsert: "INSERT … SELECT FROM unnest(an array per column) ON CONFLICT … (the store's statement)"
        }
    }

    package static let stagingTable = "sample_stage"

    /// Times this baseline storing `batches` (one transaction each) into a fresh schema of `base`.
    /// - Throws: when the database refuses a statement, or fewer rows were stored than given.
    package func time(_ batches: [[TrackSample]], base: PostgresStoreConfiguration, logger: Logger) async throws
        -> Double
    {
        try await PostgresBenchDatabase.withFreshSchema(base, logger: logger) { configuration in
            // The store's migrations make the schema, so the table, indexes and constraints are its own.
            try await PostgresTrackStore.withStore(configuration, logger: logger) { store in
                _ = try await store.addDevice(name: "bench", tokenHash: "x", at: Instant(milliseconds: 0))
            }
            let connection = try await PostgresBenchDatabase.connect(configuration, logger: logger)
            do {
                let seconds = try await time(batches, on: connection, logger: logger)
                try await connection.close()
                return seconds
            } catch {
                try? await connection.close()
                throw error
            }
        }
    }

    private func time(_ batches: [[TrackSample]], on connection: PostgresConnection, logger: Logger)
        async throws -> Double
    {
        let deviceID = try await PostgresBenchDatabase.scalar(
            connection, "SELECT id FROM device WHERE name = 'bench'", as: Int64.self, logger: logger)
        let receivedAt: Int64 = 1_732_233_600_000
        if self == .copyViaStaging {
            try await connection.query(
                PostgresQuery(unsafeSQL: Self.createStagingTable), logger: logger)
        }
        let copyPayloads = batches.map { batch in
            ByteBuffer(
                string: batch.map { CopyText.sampleRow($0, deviceID: deviceID, receivedAt: receivedAt) }.joined())
        }
        let inserts = try batches.map { batch in
            self == .unnestInsert
                ? try Self.unnestQuery(batch, deviceID: deviceID, receivedAt: receivedAt)
                : Self.insertQuery(batch, deviceID: deviceID, receivedAt: receivedAt)
        }
        let expected = batches.reduce(0) { $0 + $1.count }
        var acknowledged = 0
        let clock = ContinuousClock()
        let start = clock.now
        for (index, batch) in batches.enumerated() {
            try await connection.query("BEGIN", logger: logger)
            switch self {
            case .copy:
                try await connection.copyFrom(table: "sample", columns: CopyText.sampleColumns, logger: logger) {
                    try await $0.write(copyPayloads[index])
                }
                acknowledged += batch.count
            case .copyViaStaging:
                try await connection.copyFrom(
                    table: Self.stagingTable, columns: CopyText.sampleColumns, logger: logger
                ) { try await $0.write(copyPayloads[index]) }
                let keys = try await connection.query(
                    PostgresQuery(unsafeSQL: Self.insertFromStaging), logger: logger
                ).collect()
                acknowledged += keys.count
            case .multiRowInsert, .unnestInsert:
                acknowledged += try await connection.query(inserts[index], logger: logger).collect().count
            }
            try await connection.query(
                "UPDATE device SET last_seen_at = \(receivedAt + Int64(index)) WHERE id = \(deviceID)", logger: logger)
            try await connection.query("COMMIT", logger: logger)
        }
        let seconds = (clock.now - start).seconds
        let stored = try await PostgresBenchDatabase.scalar(
            connection, "SELECT COUNT(*) FROM sample WHERE device_id = \(deviceID)", as: Int64.self, logger: logger)
        guard stored == expected, acknowledged == expected else {
            throw PostgresBenchError("\(label) stored \(stored) and acknowledged \(acknowledged) of \(expected) rows")
        }
        return seconds
    }

    /// Emptied at every commit, so each batch's `INSERT … SELECT` sees only its own rows.
    package static let createStagingTable = """
        CREATE TEMPORARY TABLE \(stagingTable) (
            device_id BIGINT, key TEXT, sample_id TEXT, seq BIGINT, t BIGINT, lat DOUBLE PRECISION,
            lon DOUBLE PRECISION, acc DOUBLE PRECISION, alt DOUBLE PRECISION, speed DOUBLE PRECISION,
            course DOUBLE PRECISION, battery DOUBLE PRECISION, charging BOOLEAN, trigger TEXT, state TEXT,
            source TEXT, received_at BIGINT
        ) ON COMMIT DELETE ROWS
        """

    /// Sorted by key, as the store inserts (two servers take the key locks in one order).
    package static let insertFromStaging = """
        INSERT INTO sample (\(CopyText.sampleColumns.joined(separator: ", ")))
        SELECT \(CopyText.sampleColumns.joined(separator: ", ")) FROM \(stagingTable) ORDER BY key
        ON CONFLICT (device_id, key) DO NOTHING RETURNING key
        """

    /// The store's statement before the unnest one, rows sorted by key as the store does.
    package static func insertQuery(_ samples: [TrackSample], deviceID: Int64, receivedAt: Int64) -> PostgresQuery {
        let columns = CopyText.sampleColumns.count
        var sql = "INSERT INTO sample (\(CopyText.sampleColumns.joined(separator: ", "))) VALUES"
        var binds = PostgresBindings(capacity: samples.count * columns)
        for (row, sample) in samples.sorted(by: { $0.key < $1.key }).enumerated() {
            let first = row * columns + 1
            sql += (row == 0 ? " (" : ", (")
            sql += (first..<first + columns).map { "$\($0)" }.joined(separator: ", ") + ")"
            binds.append(deviceID)
            binds.append(sample.key)
            binds.append(sample.id)
            binds.append(sample.seq)
            binds.append(sample.time.milliseconds)
            binds.append(sample.latitude)
            binds.append(sample.longitude)
            binds.append(sample.accuracy)
            binds.append(sample.altitude)
            binds.append(sample.speed)
            binds.append(sample.course)
            binds.append(sample.battery)
            binds.append(sample.charging)
            binds.append(sample.trigger)
            binds.append(sample.state)
            binds.append(sample.source.rawValue)
            binds.append(receivedAt)
        }
        sql += " ON CONFLICT (device_id, key) DO NOTHING RETURNING key"
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// The store's statement, built by the store's own encoder, rows sorted by key as the store does.
    package static func unnestQuery(_ samples: [TrackSample], deviceID: Int64, receivedAt: Int64) throws
        -> PostgresQuery
    {
        try PostgresTrackStore.insertQuery(
            samples.sorted { $0.key < $1.key }, deviceID: deviceID, now: Instant(milliseconds: receivedAt))
    }
}
