public import BackgroundCore
import Logging
package import PostgresNIO
public import TrackServer

/// Storing and reading samples (``SampleStore``); the paged reads are in +Track.
extension PostgresTrackStore: SampleStore {
    public func insert(_ samples: [TrackSample], device: String, at now: Instant) async throws -> InsertOutcome {
        try await retryingDeadlocks {
            try await transaction { connection in
                let deviceID = try await Self.deviceID(connection, device, logger: logger)
                let outcome = try await Self.insertRows(
                    connection, samples, deviceID: deviceID, now: now, logger: logger)
                try await Self.markPending(
                    connection, deviceID: deviceID, samples: samples, outcome: outcome, logger: logger)
                try await Self.seen(
                    connection, deviceID: deviceID, at: now.ms, added: outcome.accepted.count, logger: logger)
                return outcome
            }
        }
    }

    /// The group commit: one transaction for every request, each request's rows inside its own
    /// SAVEPOINT. A request whose rows fail rolls back to its savepoint and gets its error; the
    /// others commit together.
    ///
    /// It runs in its own task, awaited here, so that a cancelled caller (a client that hung up)
    /// does not cut the commit the other requests of the group ride on.
    public func insertGroup(_ requests: [GroupInsert]) async throws -> [Result<InsertOutcome, any Error>] {
        let store = self
        return try await Task { try await store.commitGroup(requests) }.value
    }

    private func commitGroup(_ requests: [GroupInsert]) async throws -> [Result<InsertOutcome, any Error>] {
        // A group of one (a lone uploader, an idle server) needs no savepoint: its failure is its
        // transaction's, rolled back whole. Two round trips fewer per request.
        if requests.count == 1, let only = requests.first {
            do {
                return [.success(try await insert(only.samples, device: only.device, at: only.now))]
            } catch {
                return [.failure(error)]
            }
        }
        // A deadlock is retried with the whole group, not the one request: the cycle runs through
        // rows the group's earlier requests hold in this transaction, so retrying a request inside
        // it meets the same cycle again. Rolled back whole, the group gives the other transaction
        // its way and then finds those rows as duplicates.
        return try await retryingDeadlocks {
            try await transaction { connection in
                var deviceIDs: [String: Int64] = [:]
                var lastSeen: [Int64: (milliseconds: Int64, added: Int)] = [:]
                var results: [Result<InsertOutcome, any Error>] = []
                results.reserveCapacity(requests.count)
                for request in requests {
                    try await connection.query("SAVEPOINT request", logger: logger)
                    do {
                        let found: Int64
                        if let known = deviceIDs[request.device] {
                            found = known
                        } else {
                            found = try await Self.deviceID(connection, request.device, logger: logger)
                        }
                        deviceIDs[request.device] = found
                        let outcome = try await Self.insertRows(
                            connection, request.samples, deviceID: found, now: request.now, logger: logger)
                        try await Self.markPending(
                            connection, deviceID: found, samples: request.samples, outcome: outcome, logger: logger)
                        try await connection.query("RELEASE SAVEPOINT request", logger: logger)
                        let before = lastSeen[found] ?? (.min, 0)
                        lastSeen[found] = (
                            max(before.milliseconds, request.now.ms), before.added + outcome.accepted.count
                        )
                        results.append(.success(outcome))
                    } catch {
                        // Undoes this request's rows and frees their locks; if even that fails, the
                        // connection is gone and the whole group fails.
                        try await connection.query("ROLLBACK TO SAVEPOINT request", logger: logger)
                        try await connection.query("RELEASE SAVEPOINT request", logger: logger)
                        let explained = PostgresStoreError.explaining(error, configuration)
                        // A deadlock: the whole group again (above); any other failure is this request's.
                        if Self.isDeadlock(explained) { throw explained }
                        results.append(.failure(explained))
                    }
                }
                // In id order: two servers' groups touching the same devices lock them in one order.
                for (deviceID, seen) in lastSeen.sorted(by: { $0.key < $1.key }) {
                    try await Self.seen(
                        connection, deviceID: deviceID, at: seen.milliseconds, added: seen.added, logger: logger)
                }
                return results
            }
        }
    }

    /// After a request's rows: the device was heard from and holds `added` samples more, in the
    /// same transaction as the rows (the kept count `/healthz`, `/metrics` and the pages read).
    static func seen(
        _ connection: PostgresConnection, deviceID: Int64, at milliseconds: Int64, added: Int, logger: Logger
    ) async throws {
        try await connection.query(
            """
            UPDATE device SET last_seen_at = \(milliseconds), sample_count = sample_count + \(Int64(added))
            WHERE id = \(deviceID)
            """,
            logger: logger)
    }

    /// Tries a transaction again when PostgreSQL picked it as a deadlock victim (it was rolled back,
    /// nothing was written): two servers storing overlapping batches in different orders.
    func retryingDeadlocks<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error where Self.isDeadlock(error) && attempt < Self.deadlockAttempts {
                attempt += 1
            }
        }
    }

    static let deadlockAttempts = 5

    static func isDeadlock(_ error: any Error) -> Bool {
        ["40P01", "40001"].contains((error as? PostgresStoreError)?.sqlState)
    }

    /// Rows per statement: each column goes as one array bind, so the statement text and its 17
    /// binds stay the same size whatever the batch; this only bounds one bind's size.
    static let rowsPerStatement = 1000

    /// Inserts the samples, a key the device already has (or had earlier in `samples`) skipped as
    /// a duplicate, and says which were which, in input order.
    ///
    /// Rows go in sorted by key, so two transactions storing overlapping batches of one device
    /// take the key locks in the same order (no deadlock between two servers given the same batch).
    static func insertRows(
        _ connection: PostgresConnection, _ samples: [TrackSample], deviceID: Int64, now: Instant, logger: Logger
    ) async throws -> InsertOutcome {
        let ordered = samples.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
        var stored: Set<String> = []
        var start = 0
        while start < ordered.count {
            let chunk = ordered[start..<min(start + rowsPerStatement, ordered.count)].map(\.element)
            start += chunk.count
            let inserted = try await connection.query(
                try insertQuery(chunk, deviceID: deviceID, now: now), logger: logger)
            for try await key in inserted.decode(String.self) { stored.insert(key) }
        }
        var outcome = InsertOutcome(accepted: [], duplicates: [])
        for sample in samples {
            // The first of equal keys is the stored one; the rest are duplicates, as in SQLite.
            if stored.remove(sample.key) != nil {
                outcome.accepted.append(sample.key)
            } else {
                outcome.duplicates.append(sample.key)
            }
        }
        return outcome
    }

    /// One `INSERT … SELECT FROM unnest(…)` with an array bind per column, rows in the given order
    /// (`WITH ORDINALITY`).
    ///
    /// Not a multi-row `VALUES` list of 17 binds a row: for 500 rows that is a statement of 8,500
    /// parameters for PostgreSQL to parse and plan and for the driver to encode one by one, and
    /// `bgtrack-bench postgres` measures it storing 1.4–1.9× fewer rows per second than this.
    package static func insertQuery(_ samples: [TrackSample], deviceID: Int64, now: Instant) throws
        -> PostgresQuery
    {
        let fields = SampleValues.Field.allCases
        var binds = PostgresBindings(capacity: fields.count + 8)
        binds.append(deviceID)
        try binds.append(NullableArray(samples.map { Optional($0.key) }))
        try binds.append(NullableArray(samples.map(\.id)))
        try binds.append(NullableArray(samples.map(\.seq)))
        for field in fields {
            switch field.kind {
            case .time: try binds.append(NullableArray(samples.map { Optional($0.time.ms) }))
            case .coordinate: try binds.append(NullableArray(samples.map { $0.values.coordinate(field) }))
            case .measurement: try binds.append(NullableArray(samples.map { $0.values.measurement(field) }))
            case .flag: try binds.append(NullableArray(samples.map { $0.values.flag(field) }))
            }
        }
        try binds.append(NullableArray(samples.map(\.trigger)))
        try binds.append(NullableArray(samples.map(\.state)))
        try binds.append(NullableArray(samples.map { Optional($0.source.rawValue) }))
        binds.append(now.ms)
        return PostgresQuery(unsafeSQL: insertSQL, binds: binds)
    }

    /// ``insertQuery(_:deviceID:now:)``'s statement: `$1` the device, then an array per column
    /// (the record's from `$5`, `SampleValues/Field/columnList`), the receive time last.
    package static let insertSQL: String = {
        let fields = SampleValues.Field.allCases
        let columns = fields.map(\.column)
        let arrays = (["text", "text", "int8"] + fields.map(arrayType) + ["text", "text", "text"]).enumerated()
            .map { "$\($0.offset + 2)::\($0.element)[]" }
        let unnested = ["key", "sample_id", "seq"] + columns + ["trigger", "state", "source"]
        return """
            INSERT INTO sample (device_id, \(unnested.joined(separator: ", ")), received_at)
            SELECT $1, \(unnested.map { "u.\($0)" }.joined(separator: ", ")), $\(arrays.count + 2)
            FROM unnest(\(arrays.joined(separator: ", ")))
                WITH ORDINALITY AS u(\(unnested.joined(separator: ", ")), n)
            ORDER BY u.n
            ON CONFLICT (device_id, key) DO NOTHING RETURNING key
            """
    }()

    /// The PostgreSQL type of a record field's column.
    private static func arrayType(_ field: SampleValues.Field) -> String {
        switch field.kind {
        case .time: "int8"
        case .coordinate, .measurement: "float8"
        case .flag: "bool"
        }
    }

    public func samples(device: String, from: Instant, to: Instant, limit: Int?) async throws -> [TrackSample] {
        let limit = limit.map { Int64(max(0, $0)) }
        return try await rows(
            """
            SELECT s.key, s.sample_id, s.seq, \(unescaped: Self.recordColumns), s.trigger, s.state, s.source
            FROM sample s JOIN device d ON d.id = s.device_id
            WHERE d.name = \(device) AND s.t >= \(from.ms) AND s.t < \(to.ms) ORDER BY s.t, s.id LIMIT \(limit)
            """
        ).map(Self.sample(from:))
    }

    public func sampleTally(device: String, from: Instant, to: Instant) async throws -> SampleTally {
        let found = try await rows(
            """
            SELECT COUNT(*), COUNT(DISTINCT s.t) FROM sample s JOIN device d ON d.id = s.device_id
            WHERE d.name = \(device) AND s.t >= \(from.ms) AND s.t < \(to.ms)
            """)
        guard let row = found.first else { return SampleTally(rows: 0, distinctTimes: 0) }
        let (rows, distinct) = try row.decode((Int64, Int64).self)
        return SampleTally(rows: Int(rows), distinctTimes: Int(distinct))
    }

    /// The record's columns of the `sample` table `s`, in `SampleValues/Field/columnList` order.
    static let recordColumns = SampleValues.Field.allCases.map { "s.\($0.column)" }.joined(separator: ", ")

    static func sample(from row: PostgresRow) throws -> TrackSample {
        let columns = row.makeRandomAccess()
        return TrackSample(
            key: try columns["key"].decode(String.self), id: try columns["sample_id"].decode(String?.self),
            seq: try columns["seq"].decode(Int64?.self), values: try values(from: columns),
            trigger: try columns["trigger"].decode(String?.self), state: try columns["state"].decode(String?.self),
            source: IngestSource(rawValue: try columns["source"].decode(String.self)) ?? .native)
    }

    /// The record from a row holding its columns by name.
    static func values(from columns: PostgresRandomAccessRow) throws -> SampleValues {
        try SampleValues(
            time: { try columns[SampleValues.Field.time.column].decode(Int64.self) },
            position: { try columns[$0.column].decode(Double.self) },
            measurement: { try columns[$0.column].decode(Double?.self) },
            flag: { try columns[$0.column].decode(Bool?.self) })
    }
}
