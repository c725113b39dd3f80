public import BackgroundCore
import GRDB

/// What the sync machine remembers across launches.
public struct SyncSnapshot: Hashable, Sendable {
    /// When the last upload was acknowledged.
    public var lastSuccess: Instant?
    /// Failed attempts since the last success (drives the back-off).
    public var consecutiveFailures: Int
    /// No upload before this instant (back-off or `Retry-After`).
    public var retryAt: Instant?
    /// The current batch size when a 413 halved it; `nil` = configured size.
    public var batchSize: Int?
    /// Why uploads are held (401/403), until the user signs in again.
    public var heldReason: String?

    public init(
        lastSuccess: Instant? = nil, consecutiveFailures: Int = 0, retryAt: Instant? = nil, batchSize: Int? = nil,
        heldReason: String? = nil
    ) {
        self.lastSuccess = lastSuccess
        self.consecutiveFailures = consecutiveFailures
        self.retryAt = retryAt
        self.batchSize = batchSize
        self.heldReason = heldReason
    }
}

extension LocationStore {
    /// The saved sync state (defaults on a new store).
    public func syncSnapshot() throws(StoreError) -> SyncSnapshot {
        try read("reading the sync state") { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM sync_state WHERE id = 1")) else {
                return SyncSnapshot()
            }
            // `decode` throws where `row["…"]` would trap on a value of the wrong type. Values no
            // version of this code writes are dropped (times, batch size) or clamped (failures):
            // the sync machine's arithmetic would trap on ±2^63, and a batch size below 1 would
            // read empty batches for ever.
            func plausible(_ milliseconds: Int64?) -> Instant? {
                milliseconds.map(Instant.init(milliseconds:)).flatMap { Self.plausibleTimes.contains($0) ? $0 : nil }
            }
            let failures: Int = try row.decode(forColumn: "consecutive_failures")
            let batchSize: Int? = try row.decode(forColumn: "batch_size")
            return SyncSnapshot(
                lastSuccess: plausible(try row.decode(forColumn: "last_success")),
                consecutiveFailures: min(max(failures, 0), Self.maximumRememberedFailures),
                retryAt: plausible(try row.decode(forColumn: "retry_at")),
                batchSize: batchSize.flatMap { $0 >= 1 ? $0 : nil },
                heldReason: try row.decode(forColumn: "held_reason"))
        }
    }

    /// Saved times outside the years 1…9999 are ignored when the state is read.
    static let plausibleTimes = Instant(milliseconds: -62_135_596_800_000)...Instant(milliseconds: 253_402_300_799_999)
    /// More failures than this change nothing (the back-off is long capped by then).
    static let maximumRememberedFailures = 64

    /// Saves the sync state (the sample counter is not part of it and is left alone).
    public func save(_ snapshot: SyncSnapshot) throws(StoreError) {
        try write("saving the sync state") { db in
            try db.execute(
                sql: """
                    UPDATE sync_state SET last_success = ?, consecutive_failures = ?, retry_at = ?, batch_size = ?,
                    held_reason = ? WHERE id = 1
                    """,
                arguments: [
                    snapshot.lastSuccess?.milliseconds, snapshot.consecutiveFailures, snapshot.retryAt?.milliseconds,
                    snapshot.batchSize, snapshot.heldReason,
                ])
        }
    }

    /// The `seq` the next stored sample will get.
    public func nextSeq() throws(StoreError) -> Int64 {
        try read("reading the sample counter") { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT next_seq FROM sync_state WHERE id = 1")) ?? 1
        }
    }
}

extension LocationStore {
    /// SQLite's `PRAGMA synchronous` on the store's connection (1 NORMAL, 2 FULL), so tests can
    /// check the durability setting really took effect.
    package func synchronousLevel() throws(StoreError) -> Int {
        try read("reading PRAGMA synchronous") { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// The size in bytes the database file has once the write-ahead log is checkpointed into it
    /// (`page_count` × `page_size`), so tests can tell whether a checkpoint must grow the file.
    package func checkpointedSize() throws(StoreError) -> Int64 {
        try read("reading the database size") { db in
            (try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0)
                * (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
    }

    /// SQLite's `PRAGMA journal_mode` on the store's connection.
    package func journalMode() throws(StoreError) -> String {
        try read("reading PRAGMA journal_mode") { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }
}
