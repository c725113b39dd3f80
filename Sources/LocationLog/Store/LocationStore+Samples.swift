public import BackgroundCore
public import Foundation
import GRDB

extension LocationStore {
    /// Stores an accepted fix as a new pending sample and returns it.
    ///
    /// The id is minted and the `seq` allocated in the same transaction as the insert, so after a
    /// kill the counter never repeats and never skips a stored sample. When this returns, the
    /// sample is committed (see `Durability`).
    ///
    /// Optional values that mean "unknown" on the platform (CoreLocation's speed and course -1,
    /// UIDevice's battery -1) or are out of range or not finite are stored as `nil`: the server
    /// would reject the whole sample for them, and an infinity cannot be encoded as JSON at all.
    /// - Throws: `StoreError.diskFull` when the disk is full (pause sampling), other `StoreError`s;
    ///   `.database` for a position that is not finite (such a sample could never be sent).
    @discardableResult
    public func append(
        _ fix: LocationFix, trigger: SampleTrigger, state: SampleAppState, power: PowerContext = .unknown
    ) throws(StoreError) -> Sample {
        try insert(fix, trigger: trigger, state: state, power: power, storageFull: StorageFullWatch())
    }

    /// ``append(_:trigger:state:power:)`` for a shell that keeps the storage-full condition: a
    /// sample refused for a full disk opens or extends `storageFull`; the next sample stored
    /// records the interval from the first refused sample until its own time, in its own
    /// transaction, and clears `storageFull`. The silence before the first refused sample is
    /// judged as usual (suspension when long).
    /// - Throws: as ``append(_:trigger:state:power:)``; `storageFull` has counted the failure.
    @discardableResult
    public func append(
        _ fix: LocationFix, trigger: SampleTrigger, state: SampleAppState, power: PowerContext = .unknown,
        storageFull: inout StorageFullWatch
    ) throws(StoreError) -> Sample {
        do {
            let sample = try insert(fix, trigger: trigger, state: state, power: power, storageFull: storageFull)
            storageFull = StorageFullWatch()
            return sample
        } catch {
            storageFull.sampleRefused(error, at: fix.timestamp)
            throw error
        }
    }

    private func insert(
        _ fix: LocationFix, trigger: SampleTrigger, state: SampleAppState, power: PowerContext,
        storageFull: StorageFullWatch
    ) throws(StoreError) -> Sample {
        for (name, value) in [("latitude", fix.latitude), ("longitude", fix.longitude)] where !value.isFinite {
            throw StoreError.database(
                operation: "storing a sample",
                reason: "\(name) \(value) is not a finite number; only fixes with a real position can be stored")
        }
        let id = makeID()
        return try write("storing a sample") { db in
            let seq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT next_seq FROM sync_state WHERE id = 1")) ?? 1
            guard seq < Int64.max else {
                // `seq + 1` below would trap: only a damaged or hand-edited file holds this.
                throw StoreError.database(
                    operation: "storing a sample",
                    reason: "the sample counter sync_state.next_seq is \(seq), past any real count; the file was "
                        + "altered. Move it aside (keep it: it holds the pending samples) and start a new store")
            }
            let sample = Sample(id: id, seq: seq, fix: fix, trigger: trigger, state: state, power: power)
                .withUnknownsAsNil()
            try db.cachedStatement(sql: SampleColumns.insert(into: "sample")).execute(
                arguments: SampleColumns.arguments(sample))
            try db.cachedStatement(sql: "UPDATE sync_state SET next_seq = ? WHERE id = 1").execute(arguments: [seq + 1])
            try GapRows.sampled(
                db, at: fix.timestamp, trigger: trigger, state: state, storageFull: storageFull, makeID: makeID)
            return sample
        }
    }

    /// How many samples wait for upload.
    public func pendingCount() throws(StoreError) -> Int {
        // Cached: the shell counts at every status change (compiling costs more than running it).
        try readStatement("counting pending samples") { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM sample")) ?? 0
        }
    }

    /// The oldest pending samples, by `seq`: the next batch.
    ///
    /// Rows that cannot be read as samples (see `SampleColumns.sample`) are passed over, not
    /// counted, so they never hide the samples stored after them; they stay in the table.
    /// - Parameter excluding: samples not to read (acknowledged ones whose delete could not be
    ///   written yet, see ``SyncDriver``).
    public func oldestPending(limit: Int, excluding: Set<UUID> = []) throws(StoreError) -> [Sample] {
        try read("reading the next batch") { db in
            var batch: [Sample] = []
            guard limit > 0 else { return batch }
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT \(SampleColumns.list) FROM sample ORDER BY seq"))
            while batch.count < limit, let row = try rows.next() {
                // A copy decodes strictly; a cursor row would let SQLite turn 'garbage' into 0.
                if let sample = SampleColumns.sample(row.copy()), !excluding.contains(sample.id) {
                    batch.append(sample)
                }
            }
            return batch
        }
    }

    /// The newest pending samples, newest first (what an app's screen shows of the last hours).
    public func newestPending(limit: Int) throws(StoreError) -> [Sample] {
        try read("reading the newest samples") { db in
            var newest: [Sample] = []
            guard limit > 0 else { return newest }
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT \(SampleColumns.list) FROM sample ORDER BY seq DESC"))
            while newest.count < limit, let row = try rows.next() {
                if let sample = SampleColumns.sample(row.copy()) { newest.append(sample) }
            }
            return newest
        }
    }

    /// Applies a server acknowledgement: deletes exactly `stored`, moves `rejected` to quarantine.
    ///
    /// Ids the store does not hold are ignored: a sample written while the batch was in flight is
    /// never touched, because only ids the server named are deleted.
    /// - Returns: how many rows were deleted and how many quarantined.
    ///
    /// The write-ahead log is then checkpointed (``restartLog()``): the deleted rows' pages are
    /// free for the next samples and the log is written again from its start, so on a disk that
    /// filled, uploads make room again.
    @discardableResult
    public func acknowledge(
        deleting stored: Set<UUID>, quarantining rejected: [UUID: String], at now: Instant
    ) throws(StoreError) -> (deleted: Int, quarantined: Int) {
        defer { try? restartLog() }
        return try write("applying a server acknowledgement") { db in
            var quarantined = 0
            for (id, reason) in rejected.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO quarantine (\(SampleColumns.list), reason, quarantined_at)
                        SELECT \(SampleColumns.list), ?, ? FROM sample WHERE id = ?
                        """, arguments: [reason, now.milliseconds, id.wireString])
                quarantined += db.changesCount
                try db.cachedStatement(sql: "DELETE FROM sample WHERE id = ?").execute(arguments: [id.wireString])
            }
            var deleted = 0
            let ids = stored.map(\.wireString)
            // SQLite's default limit on bound parameters is 32766; chunk well below it.
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(ids.count, start + 500)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                try db.execute(sql: "DELETE FROM sample WHERE id IN (\(marks))", arguments: StatementArguments(chunk))
                deleted += db.changesCount
            }
            return (deleted, quarantined)
        }
    }

    /// When the newest stored sample (pending or quarantined) was measured; `nil` when none is
    /// stored. Lets a relaunched recorder know its current slot is already filled.
    /// Pending samples with `seq` greater than `seq`, oldest first: what was stored since.
    package func pending(afterSeq seq: Int64) throws(StoreError) -> [Sample] {
        try readStatement("reading the samples stored since seq \(seq)") { db in
            // Cached: the simulator reads what the hosted shell stored after every event.
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(SampleColumns.list) FROM sample WHERE seq > ? ORDER BY seq"),
                arguments: [seq]
            ).compactMap { SampleColumns.sample($0) }
        }
    }

    /// Rows inserted, updated or deleted through this store's connection since it opened
    /// (`sqlite3_total_changes`), or `nil` if it cannot be read. Unchanged, it tells a caller
    /// that nothing was written through this store since, without running a query (the shell
    /// recounts its pending samples only then); it does not see writes by another connection to
    /// the same file.
    public func changeCount() -> Int? {
        try? readStatement("counting changes") { $0.totalChangesCount }
    }

    public func newestSampleTime() throws(StoreError) -> Instant? {
        try readStatement("reading the newest sample time") { db in
            try Int64.fetchOne(
                db.cachedStatement(
                    sql: "SELECT max(t) FROM (SELECT max(t) AS t FROM sample UNION ALL SELECT max(t) FROM quarantine)"))
        }.map(Instant.init(milliseconds:))
    }

    /// Samples the server rejected, with its reasons, oldest first.
    public func quarantined() throws(StoreError) -> [QuarantinedSample] {
        try read("reading the quarantine") { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT \(SampleColumns.list), reason, quarantined_at FROM quarantine ORDER BY seq")
            ).compactMap { row in
                guard let sample = SampleColumns.sample(row),
                    let reason = try? row.decode(String.self, forColumn: "reason"),
                    let quarantinedAt = try? row.decode(Int64.self, forColumn: "quarantined_at")
                else { return nil }
                return QuarantinedSample(
                    sample: sample, reason: reason, quarantinedAt: Instant(milliseconds: quarantinedAt))
            }
        }
    }

    /// Whether a sample with this id is pending (for tests and the kill test).
    public func containsPending(_ id: UUID) throws(StoreError) -> Bool {
        try read("looking up a sample") { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sample WHERE id = ?"), arguments: [id.wireString])
                ?? false
        }
    }

    /// Every pending id (for tests and the kill test).
    public func pendingIDs() throws(StoreError) -> Set<UUID> {
        try read("listing pending ids") { db in
            Set(
                try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM sample")).compactMap(UUID.init(uuidString:))
            )
        }
    }
}

/// A sample the server refused, kept with the server's reason; never deleted silently.
public struct QuarantinedSample: Hashable, Sendable {
    public var sample: Sample
    public var reason: String
    public var quarantinedAt: Instant
}

/// The column list shared by `sample` and `quarantine`, and row mapping.
enum SampleColumns {
    /// `id, seq`, the record's columns (`SampleValues/Field/columnList`), `trigger, state`.
    static let list = "id, seq, \(SampleValues.Field.columnList), trigger, state"
    private static let count = SampleValues.Field.allCases.count + 4

    static func insert(into table: String) -> String {
        "INSERT INTO \(table) (\(list)) VALUES (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
    }

    static func arguments(_ s: Sample) -> StatementArguments {
        // One array literal (see `SampleValues.statementArguments`).
        s.values.statementArguments(before: s.id.wireString, s.seq, after: s.trigger.rawValue, s.state.rawValue)
    }

    /// `nil` only for a row no version of this code could have written (bad id or enum, a value
    /// of the wrong type). Decoding throws instead of using `row["…"]`, which GRDB evaluates with a forced try:
    /// SQLite does not enforce column types, so a hand-edited file would otherwise crash the app.
    static func sample(_ row: Row) -> Sample? {
        do {
            guard let id = UUID(uuidString: try row.decode(forColumn: "id")),
                let trigger = SampleTrigger(rawValue: try row.decode(forColumn: "trigger")),
                let state = SampleAppState(rawValue: try row.decode(forColumn: "state"))
            else { return nil }
            let values = try SampleValues(
                time: { () throws -> Int64 in try row.decode(forColumn: SampleValues.Field.time.column) },
                position: { try row.decode(forColumn: $0.column) },
                measurement: { try row.decode(forColumn: $0.column) },
                flag: { try row.decode(forColumn: $0.column) })
            return Sample(id: id, seq: try row.decode(forColumn: "seq"), values: values, trigger: trigger, state: state)
        } catch {
            return nil
        }
    }
}

extension LocationStore {
    /// Runs a write transaction, mapping errors to `StoreError`.
    ///
    /// A write refused for a full disk is tried once more after a checkpoint that restarts the
    /// write-ahead log (``restartLog()``): the log grows only when a write reaches past its end, and
    /// after the restart the write goes to the log's start, in space the file already has.
    func write<T>(_ operation: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writer.write(body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            guard (try? restartLog()) != nil else {
                throw StoreError(error, operation: operation, path: path ?? ":memory:")
            }
            do {
                return try writer.write(body)
            } catch {
                throw StoreError(error, operation: operation, path: path ?? ":memory:")
            }
        } catch {
            throw StoreError(error, operation: operation, path: path ?? ":memory:")
        }
    }

    /// Checkpoints the write-ahead log into the database and truncates it to nothing, so all the
    /// space it held goes back to the disk (`PRAGMA wal_checkpoint(TRUNCATE)`). A store in memory
    /// has no log.
    /// - Throws: `StoreError` when the checkpoint cannot complete (the disk cannot take the pages
    ///   the log adds to the database, or another connection reads the log).
    public func checkpointLog() throws(StoreError) {
        try checkpoint(.truncate)
    }

    /// Checkpoints the write-ahead log into the database so that the next write starts at the
    /// log's beginning (`PRAGMA wal_checkpoint(RESTART)`). Done after every acknowledgement and
    /// when a write finds the disk full. The log keeps its file (at most
    /// `journal_size_limit`, see ``open(path:durability:now:makeID:observesSuspension:)``): on a
    /// full disk that space is the store's own, which truncating would hand to other apps, and a
    /// relaunch can open a store whose log is not empty without writing to it.
    /// - Throws: as ``checkpointLog()``.
    public func restartLog() throws(StoreError) {
        try checkpoint(.restart)
    }

    private func checkpoint(_ mode: Database.CheckpointMode) throws(StoreError) {
        do {
            try writer.writeWithoutTransaction { db in
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" else { return }
                try db.checkpoint(mode)
            }
        } catch {
            throw StoreError(error, operation: "checkpointing the write-ahead log", path: path ?? ":memory:")
        }
    }

    /// Runs a read of one statement, mapping errors to `StoreError`: SQLite gives a lone statement
    /// its own snapshot, so on a queue it needs no transaction around it (for the counts and
    /// reads the shell and the simulator make at every event).
    func readStatement<T>(_ operation: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            guard let queue = writer as? DatabaseQueue else { return try writer.read(body) }
            return try queue.writeWithoutTransaction(body)
        } catch {
            throw StoreError(error, operation: operation, path: path ?? ":memory:")
        }
    }

    /// Runs a read in one transaction (one snapshot), mapping errors to `StoreError`.
    ///
    /// On a queue, without GRDB's `read`: it wraps each read in `PRAGMA query_only = 1 … = 0`, and
    /// SQLite expires every prepared statement at a flag pragma, so each read re-compiled the
    /// store's cached statements (the shell reads at every status change). The bodies only read.
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            guard let queue = writer as? DatabaseQueue else { return try writer.read(body) }
            return try queue.writeWithoutTransaction { db in
                // `BEGIN`/`COMMIT` cached too: GRDB compiles its own at every transaction.
                try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
                do {
                    let result = try body(db)
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    return result
                } catch {
                    if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
                    throw error
                }
            }
        } catch {
            throw StoreError(error, operation: operation, path: path ?? ":memory:")
        }
    }
}

extension LocationStore {
    /// Inserts already-built samples in one transaction and moves `next_seq` past them: for
    /// benchmarks and fixtures that need a large backlog quickly. Sampling uses `append`.
    package func importSamples(_ samples: [Sample]) throws(StoreError) {
        try write("importing samples") { db in
            let statement = try db.cachedStatement(sql: SampleColumns.insert(into: "sample"))
            for sample in samples { try statement.execute(arguments: SampleColumns.arguments(sample)) }
            try db.cachedStatement(sql: "UPDATE sync_state SET next_seq = max(next_seq, ?) WHERE id = 1").execute(
                arguments: [(samples.map(\.seq).max() ?? 0) + 1])
        }
    }
}

extension LocationStore {
    /// Takes in samples another store of this phone holds (the shell's held store from before the
    /// first unlock), keeping their ids and times and giving them this store's next `seq`s, in
    /// time order, in one transaction; the silences between them are judged as if they had been
    /// stored here. A sample whose id this store already has is skipped, so a move that was cut
    /// short (the process killed before the other file was deleted) can be run again.
    /// - Parameter relaunch: why the app stopped sampling before the first of them (its gap's
    ///   detail, reason `terminated-by-system`), or `nil` to judge that silence as any other.
    /// - Returns: how many samples were added.
    @discardableResult
    public func adopt(_ samples: [Sample], relaunch: String? = nil) throws(StoreError) -> Int {
        guard !samples.isEmpty else { return 0 }
        return try write("taking in held samples") { db in
            var seq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT next_seq FROM sync_state WHERE id = 1")) ?? 1
            let exists = try db.cachedStatement(sql: "SELECT 1 FROM sample WHERE id = ?")
            let insert = try db.cachedStatement(sql: SampleColumns.insert(into: "sample"))
            var added = 0
            for sample in samples.sorted(by: { ($0.time, $0.seq) < ($1.time, $1.seq) }) {
                guard try Int.fetchOne(exists, arguments: [sample.id.wireString]) == nil else { continue }
                if added == 0, let relaunch {
                    try GapRows.relaunched(db, detail: relaunch, before: sample.time)
                }
                var adopted = sample
                adopted.seq = seq
                try insert.execute(arguments: SampleColumns.arguments(adopted))
                try GapRows.sampled(db, at: sample.time, trigger: sample.trigger, state: sample.state, makeID: makeID)
                seq += 1
                added += 1
            }
            try db.cachedStatement(sql: "UPDATE sync_state SET next_seq = ? WHERE id = 1").execute(arguments: [seq])
            return added
        }
    }
}

extension Sample {
    /// The sample with every optional value that is not a valid measurement (platform "invalid"
    /// markers such as -1, out-of-range or non-finite values) replaced by `nil`, which is how the
    /// wire says "unknown" (docs/protocol.md §Batches).
    /// A value is valid when it is finite, inside its rule's range (``SampleRuleSet/range(for:)``)
    /// and not a 0 that means unknown (``SampleValues/Field/zeroIsUnknown``): a sample the server
    /// would refuse for one value is sent with that value unknown instead.
    func withUnknownsAsNil() -> Sample {
        var sample = self
        for field in SampleValues.Field.measurements {
            guard let value = values.measurement(field) else { continue }
            // `contains` is false for NaN.
            let inRange = SampleRuleSet.range(for: field).map { $0.contains(value) } ?? value.isFinite
            if !inRange || (field.zeroIsUnknown && value == 0) { sample.values.setMeasurement(field, nil) }
        }
        return sample
    }
}
