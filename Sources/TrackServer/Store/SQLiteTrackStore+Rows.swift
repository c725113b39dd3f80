import BackgroundCore
import GRDB
import LocationLog

extension SQLiteTrackStore {
    static let deviceQuery = """
        SELECT d.name, d.created_at, d.revoked_at, d.last_seen_at, d.silent_after_ms, d.sample_count,
            (SELECT a.silent_since FROM alert_state a WHERE a.device_id = d.id) AS silent_since, d.rejected_count
        FROM device d
        """

    /// After a request's rows: the device was heard from, and holds `added` samples more (kept in
    /// the same transaction as the rows, so the count is never off).
    static let seenSQL = "UPDATE device SET last_seen_at = ?, sample_count = sample_count + ? WHERE id = ?"

    static let insertSQL = """
        INSERT OR IGNORE INTO sample (device_id, key, sample_id, seq, \(SampleValues.Field.columnList),
            trigger, state, source, received_at)
        VALUES (?, ?, ?, ?, \(SampleValues.Field.allCases.map { _ in "?" }.joined(separator: ", ")), ?, ?, ?, ?)
        """

    /// One request's rows in the caller's transaction: the device looked up, the rows inserted,
    /// the device's tally and last-seen time updated (``TrackStore/insert(_:device:at:)`` and a
    /// group commit of one request).
    static func insertRequest(_ db: Database, _ request: GroupInsert) throws -> InsertOutcome {
        guard let deviceID = try deviceID(db, request.device) else {
            throw TrackStoreError.unknownDevice(request.device)
        }
        let outcome = try insertRows(db, db.cachedStatement(sql: insertSQL), request, deviceID: deviceID)
        try markSeen(db, deviceID: deviceID, at: request.now.milliseconds, added: outcome.accepted.count)
        return outcome
    }

    /// The one insert loop of the SQLite store: each sample a new row (accepted) or a key already
    /// stored (duplicate, `INSERT OR IGNORE` changed nothing); the days of the new rows are marked
    /// for the detail pass, and a stretch the timeline must redo, in the same transaction.
    static func insertRows(
        _ db: Database, _ statement: Statement, _ request: GroupInsert, deviceID: Int64
    ) throws -> InsertOutcome {
        var rows = NewRows()
        let outcome = try insertRows(db, statement, request, deviceID: deviceID, newRows: &rows)
        try markPending(db, deviceID: deviceID, rows: rows)
        return outcome
    }

    /// ``insertRows(_:_:_:deviceID:)`` that leaves the marking to the caller: a group commit
    /// marks each device's days once for the whole group, not once per request.
    static func insertRows(
        _ db: Database, _ statement: Statement, _ request: GroupInsert, deviceID: Int64, newRows rows: inout NewRows
    ) throws -> InsertOutcome {
        var outcome = InsertOutcome(accepted: [], duplicates: [])
        for sample in request.samples {
            try statement.execute(arguments: arguments(sample, deviceID: deviceID, now: request.now))
            if db.changesCount > 0 {
                outcome.accepted.append(sample.key)
                rows.add(sample.time.milliseconds)
            } else {
                outcome.duplicates.append(sample.key)
            }
        }
        return outcome
    }

    // Every ingest commit runs these: cached statements, compiled once per connection (compiling
    // one costs more than running it, GRDB's authorizer included).

    static func deviceID(_ db: Database, _ name: String) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM device WHERE name = ? AND revoked_at IS NULL"), arguments: [name])
    }

    /// The device was heard from at `milliseconds`, and holds `added` samples more.
    static func markSeen(_ db: Database, deviceID: Int64, at milliseconds: Int64, added: Int = 0) throws {
        try db.cachedStatement(sql: seenSQL).execute(arguments: [milliseconds, added, deviceID])
    }

    static func device(from row: Row) -> DeviceRecord {
        DeviceRecord(
            name: row["name"],
            createdAt: Instant(milliseconds: row["created_at"]),
            revokedAt: (row["revoked_at"] as Int64?).map(Instant.init(milliseconds:)),
            lastSeenAt: (row["last_seen_at"] as Int64?).map(Instant.init(milliseconds:)),
            sampleCount: row["sample_count"],
            silentAfter: (row["silent_after_ms"] as Int64?).map { .milliseconds($0) },
            silentSince: (row["silent_since"] as Int64?).map(Instant.init(milliseconds:)),
            rejectedCount: row["rejected_count"]
        )
    }

    static func arguments(_ sample: TrackSample, deviceID: Int64, now: Instant) -> StatementArguments {
        // One array literal (see `SampleValues.statementArguments`).
        sample.values.statementArguments(
            before: deviceID, sample.key, sample.id, sample.seq,
            after: sample.trigger, sample.state, sample.source.rawValue, now.milliseconds)
    }

    /// The columns ``sample(from:)`` reads, in its order (`s` is the sample table).
    static let sampleColumns =
        "s.key, s.sample_id, s.seq, "
        + SampleValues.Field.allCases.map { "s.\($0.column)" }.joined(separator: ", ")
        + ", s.trigger, s.state, s.source"

    /// A row of ``sampleColumns``, by position: decoding by name lowercases each name for each
    /// row, which cost more than the rest of a read (the timeline's rebuilds read every sample of
    /// an entry).
    static func sample(from row: Row) throws -> TrackSample {
        let tail = 3 + afterRecord
        return TrackSample(
            key: row[0], id: row[1], seq: row[2], values: try SampleValues(row: row, at: 3), trigger: row[tail],
            state: row[tail + 1], source: IngestSource(rawValue: row[tail + 2]) ?? .native)
    }

    /// The first column after a record read from column 0.
    static let afterRecord = SampleValues.Field.allCases.count
}
