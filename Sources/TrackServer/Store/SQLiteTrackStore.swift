import BackgroundCore
public import GRDB
public import LocationLog

/// The embedded SQLite store (GRDB): one file on disk, or in memory for tests.
///
/// ```swift
/// let store = try SQLiteTrackStore(path: "./data/tracks.sqlite")
/// ```
public struct SQLiteTrackStore: TrackStore, Sendable {
    package let writer: any DatabaseWriter

    /// Opens (creating if needed) and migrates the database at `path`.
    ///
    /// The server's default durability is `.powerLoss` (`synchronous = FULL`): every ingest is
    /// acknowledged only after its transaction returned, and the phone deletes what was
    /// acknowledged (the phone's own store defaults to `.processCrash`; docs/glossary.md).
    /// - Throws: GRDB's `DatabaseError` when the file cannot be opened or migrated.
    public init(path: String, durability: Durability = .powerLoss) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: path, configuration: configuration)
        // After opening: GRDB's WAL set-up sets NORMAL on the writer after `prepareDatabase`, which
        // would override a FULL set there. A pool has one writer connection, so this holds for
        // every later write.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability.synchronousPragma)")
        }
        try self.init(writer: pool)
    }

    /// The writer's `PRAGMA synchronous` (1 NORMAL, 2 FULL), so tests and operators can check it.
    public func synchronousLevel() async throws -> Int {
        try await writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// Closes the database: later calls throw. A store is also closed when its last copy goes away;
    /// this makes the moment explicit (a graceful shutdown, a test's simulated power cut).
    public func close() throws {
        try writer.close()
    }

    /// A private in-memory database, for tests.
    public static func inMemory() throws -> SQLiteTrackStore {
        try SQLiteTrackStore(writer: DatabaseQueue())
    }

    /// Wraps and migrates an existing writer.
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }
}
