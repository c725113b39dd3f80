public import BackgroundCore
public import GRDB
public import LocationLog

/// The embedded SQLite store (GRDB): one file on disk, or in memory for tests.
///
/// ```swift
/// let store = try SQLiteTrackStore(path: "./data/tracks.sqlite")
/// ```
public struct SQLiteTrackStore: TrackStore {
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

    public func addDevice(name: String, tokenHash: String, at now: Instant) async throws -> DeviceRecord {
        do {
            try await writer.write { db in
                try db.execute(
                    sql: "INSERT INTO device (name, token_hash, created_at) VALUES (?, ?, ?)",
                    arguments: [name, tokenHash, now.milliseconds]
                )
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw TrackStoreError.duplicateName(name)
        }
        return DeviceRecord(name: name, createdAt: now, revokedAt: nil, lastSeenAt: nil, sampleCount: 0)
    }

    public func addOperator(name: String, tokenHash: String, at now: Instant) async throws {
        do {
            try await writer.write { db in
                try db.execute(
                    sql: "INSERT INTO operator (name, token_hash, created_at) VALUES (?, ?, ?)",
                    arguments: [name, tokenHash, now.milliseconds]
                )
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw TrackStoreError.duplicateName(name)
        }
    }

    public func devices() async throws -> [DeviceRecord] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: Self.deviceQuery + " ORDER BY d.name").map(Self.device(from:))
        }
    }

    public func device(named name: String) async throws -> DeviceRecord? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: Self.deviceQuery + " WHERE d.name = ?", arguments: [name]).map(Self.device(from:))
        }
    }

    public func revokeDevice(named name: String, at now: Instant) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE device SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                arguments: [now.milliseconds, name]
            )
            let changed = db.changesCount > 0
            try db.execute(
                sql: """
                    UPDATE session SET revoked_at = ?
                    WHERE revoked_at IS NULL AND device_id = (SELECT id FROM device WHERE name = ?)
                    """,
                arguments: [now.milliseconds, name]
            )
            // Its share links end with it (issue 41 item 4): a revoked device shares nothing.
            try db.execute(
                sql: """
                    UPDATE share_link SET revoked_at = ?
                    WHERE revoked_at IS NULL AND device_id = (SELECT id FROM device WHERE name = ?)
                    """,
                arguments: [now.milliseconds, name]
            )
            return changed
        }
    }

    public func owner(ofTokenHash hash: String, at now: Instant) async throws -> TokenOwner? {
        // Every authenticated request runs this: cached statements, compiled once per connection.
        // (GRDB's blocking `read` on the calling thread was tried: it made 16-connection
        // single-point ingest 4× slower, the cooperative threads waiting on the reader queues.)
        try await writer.read { db in
            if let name = try String.fetchOne(
                db.cachedStatement(sql: "SELECT name FROM device WHERE token_hash = ? AND revoked_at IS NULL"),
                arguments: [hash])
            {
                return .device(name)
            }
            if let name = try String.fetchOne(
                db.cachedStatement(sql: "SELECT name FROM operator WHERE token_hash = ? AND revoked_at IS NULL"),
                arguments: [hash])
            {
                return .operator(name)
            }
            let sessionDevice = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT d.name FROM session s JOIN device d ON d.id = s.device_id
                        WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND d.revoked_at IS NULL
                        """),
                arguments: [hash, now.milliseconds]
            )
            return sessionDevice.map { .session(device: $0, tokenHash: hash) }
        }
    }

    public func createSession(device: String, tokenHash: String, expiresAt: Instant, at now: Instant) async throws {
        try await writer.write { db in
            guard let deviceID = try Self.deviceID(db, device) else { throw TrackStoreError.unknownDevice(device) }
            try db.execute(
                sql: "INSERT INTO session (token_hash, device_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, deviceID, now.milliseconds, expiresAt.milliseconds]
            )
            try Self.markSeen(db, deviceID: deviceID, at: now.milliseconds)
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT d.name, s.expires_at, s.revoked_at FROM session s JOIN device d ON d.id = s.device_id
                    WHERE s.token_hash = ?
                    """,
                arguments: [tokenHash]
            ).map { row in
                SessionRecord(
                    device: row[0],
                    expiresAt: Instant(milliseconds: row[1]),
                    revokedAt: (row[2] as Int64?).map(Instant.init(milliseconds:))
                )
            }
        }
    }

    public func extendSession(tokenHash: String, to expiresAt: Instant, at now: Instant) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE session SET expires_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                arguments: [expiresAt.milliseconds, tokenHash]
            )
            try db.execute(
                sql:
                    "UPDATE device SET last_seen_at = ? WHERE id = (SELECT device_id FROM session WHERE token_hash = ?)",
                arguments: [now.milliseconds, tokenHash]
            )
        }
    }

    public func revokeSession(tokenHash: String, at now: Instant) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE session SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                arguments: [now.milliseconds, tokenHash]
            )
        }
    }

    public func insert(_ samples: [TrackSample], device: String, at now: Instant) async throws -> InsertOutcome {
        try await writer.write { db in
            try Self.insertRequest(db, GroupInsert(samples: samples, device: device, now: now))
        }
    }

    public func samples(device: String, from: Instant, to: Instant, limit: Int?) async throws -> [TrackSample] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.sampleColumns) FROM sample s JOIN device d ON d.id = s.device_id
                    WHERE d.name = ? AND s.t >= ? AND s.t < ? ORDER BY s.t, s.id LIMIT ?
                    """,
                // SQLite reads a negative LIMIT as "no limit".
                arguments: [device, from.milliseconds, to.milliseconds, limit.map { max(0, $0) } ?? -1]
            ).map(Self.sample(from:))
        }
    }

    public func sampleTally(device: String, from: Instant, to: Instant) async throws -> SampleTally {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*), COUNT(DISTINCT s.t) FROM sample s JOIN device d ON d.id = s.device_id
                    WHERE d.name = ? AND s.t >= ? AND s.t < ?
                    """,
                arguments: [device, from.milliseconds, to.milliseconds])
            return SampleTally(rows: row?[0] ?? 0, distinctTimes: row?[1] ?? 0)
        }
    }

    public func recordEvent(device: String, type: String, json: String, at now: Instant) async throws {
        try await writer.write { db in
            guard let deviceID = try Self.deviceID(db, device) else { throw TrackStoreError.unknownDevice(device) }
            try db.execute(
                sql: "INSERT INTO event (device_id, type, json, received_at) VALUES (?, ?, ?, ?)",
                arguments: [deviceID, type, json, now.milliseconds]
            )
            try Self.markSeen(db, deviceID: deviceID, at: now.milliseconds)
        }
    }

    public func eventCount(device: String) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM event e JOIN device d ON d.id = e.device_id WHERE d.name = ?",
                arguments: [device]
            ) ?? 0
        }
    }
}
