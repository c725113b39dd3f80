package import Logging
import PostgresNIO
import TrackServer

extension PostgresTrackStore {
    /// One migration: a version, a name, and its statements (one per query: the extended
    /// protocol runs one statement at a time).
    struct Migration: Sendable {
        var version: Int64
        var name: String
        var statements: [String]
    }

    /// Append-only: never edit one that shipped, add the next version. The applied ones are rows
    /// of `schema_version`.
    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "v1-devices-samples-sessions-alerts-quarantine",
            statements: [
                """
                CREATE TABLE device (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    tokenhash TEXT NOT NULL UNIQUE,
                    createdat BIGINT NOT NULL,
                    revokedat BIGINT,
                    lastseenat BIGINT,
                    silentafterms BIGINT
                )
                """,
                """
                CREATE TABLE operator (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    tokenhash TEXT NOT NULL UNIQUE,
                    createdat BIGINT NOT NULL,
                    revokedat BIGINT
                )
                """,
                """
                CREATE TABLE session (
                    tokenhash TEXT PRIMARY KEY,
                    deviceid BIGINT NOT NULL REFERENCES device(id),
                    createdat BIGINT NOT NULL,
                    expiresat BIGINT NOT NULL,
                    revokedat BIGINT
                )
                """,
                """
                CREATE TABLE sample (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    deviceid BIGINT NOT NULL REFERENCES device(id),
                    key TEXT NOT NULL,
                    sampleid TEXT,
                    seq BIGINT,
                    t BIGINT NOT NULL,
                    lat DOUBLE PRECISION NOT NULL,
                    lon DOUBLE PRECISION NOT NULL,
                    acc DOUBLE PRECISION,
                    alt DOUBLE PRECISION,
                    speed DOUBLE PRECISION,
                    course DOUBLE PRECISION,
                    battery DOUBLE PRECISION,
                    charging BOOLEAN,
                    trigger TEXT,
                    state TEXT,
                    source TEXT NOT NULL,
                    receivedat BIGINT NOT NULL,
                    UNIQUE (deviceid, key)
                )
                """,
                "CREATE INDEX sample_device_time ON sample (deviceid, t)",
                """
                CREATE TABLE event (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    deviceid BIGINT NOT NULL REFERENCES device(id),
                    type TEXT NOT NULL,
                    json TEXT NOT NULL,
                    receivedat BIGINT NOT NULL
                )
                """,
                "CREATE INDEX event_device ON event (deviceid)",
                """
                CREATE TABLE alert_state (
                    deviceid BIGINT PRIMARY KEY REFERENCES device(id),
                    silentsince BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE alert_outbox (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    target TEXT NOT NULL,
                    json TEXT NOT NULL,
                    createdat BIGINT NOT NULL,
                    attempts BIGINT NOT NULL DEFAULT 0,
                    nextattemptat BIGINT NOT NULL,
                    lasterror TEXT
                )
                """,
                """
                CREATE TABLE rejected_point (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    deviceid BIGINT NOT NULL REFERENCES device(id),
                    source TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    raw TEXT NOT NULL,
                    receivedat BIGINT NOT NULL
                )
                """,
                "CREATE INDEX rejected_point_device ON rejected_point (deviceid, id)",
            ]),
        // The device list's counts kept in the device row by the transactions that add rows, not
        // counted from every sample on each /healthz, /metrics and page (issue 23).
        Migration(
            version: 2, name: "v2-device-tallies",
            statements: [
                "ALTER TABLE device ADD COLUMN samplecount BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE device ADD COLUMN rejectedcount BIGINT NOT NULL DEFAULT 0",
                """
                UPDATE device SET
                    samplecount = (SELECT COUNT(*) FROM sample s WHERE s.deviceid = device.id),
                    rejectedcount = (SELECT COUNT(*) FROM rejected_point r WHERE r.deviceid = device.id)
                """,
            ]),
        // The OwnTracks payload key (`device add|set --owntracks-key`), 32 bytes.
        Migration(
            version: 3, name: "v3-owntracks-key", statements: ["ALTER TABLE device ADD COLUMN owntrackskey BYTEA"]),
        // The timeline (issue 24): closed stays, trips and gaps per device, and the detector's state.
        Migration(
            version: 4, name: "v4-timeline",
            statements: [
                """
                CREATE TABLE timeline_entry (
                    deviceid BIGINT NOT NULL REFERENCES device(id),
                    kind TEXT NOT NULL,
                    startat BIGINT NOT NULL,
                    endat BIGINT NOT NULL,
                    latitude DOUBLE PRECISION,
                    longitude DOUBLE PRECISION,
                    endlatitude DOUBLE PRECISION,
                    endlongitude DOUBLE PRECISION,
                    radius DOUBLE PRECISION,
                    distance DOUBLE PRECISION,
                    samplecount BIGINT,
                    inferred BOOLEAN,
                    mode TEXT,
                    PRIMARY KEY (deviceid, startat, kind)
                )
                """,
                "CREATE INDEX timeline_entry_end ON timeline_entry (deviceid, endat)",
                """
                CREATE TABLE timeline_state (
                    deviceid BIGINT PRIMARY KEY REFERENCES device(id),
                    builder TEXT NOT NULL
                )
                """,
            ]),
        // Why the phone took no samples (issue 24 item 3). Version 4 belongs to another change.
        Migration(version: 5, name: "v5-gap-intervals", statements: gapIntervalStatements),
        // Issue 25 items 1 and 5 (PostgresTrackStore+Detail.swift); 4 and 5 belong to other changes.
        detailMigration,
        // Share links (`bgtrack share`) and the per-device retention period (issue 25).
        Migration(version: 7, name: "v7-shares-retention", statements: sharesRetentionStatements),
        // Imports (`bgtrack import`): one checkpoint per device and file, committed with each batch.
        // (Versions 4-7 are other features'; versions need not be contiguous, only increasing.)
        Migration(
            version: 8, name: "v8-imports",
            statements: [
                """
                CREATE TABLE import_job (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    deviceid BIGINT NOT NULL REFERENCES device(id),
                    fingerprint TEXT NOT NULL,
                    format TEXT NOT NULL,
                    records BIGINT NOT NULL,
                    bytes BIGINT NOT NULL,
                    points BIGINT NOT NULL,
                    added BIGINT NOT NULL,
                    duplicates BIGINT NOT NULL,
                    rejected BIGINT NOT NULL,
                    finished BOOLEAN NOT NULL,
                    updatedat BIGINT NOT NULL,
                    UNIQUE (deviceid, fingerprint)
                )
                """
            ]),
        // Issue 26: snake_case columns, as the phone's store and SQLite (`v12-snake-case-columns`)
        // have them; until then the camelCase names of the first schema, folded to lowercase.
        Migration(
            version: 9, name: "v9-snake-case-columns",
            statements: SnakeCaseColumns.statements(lowercased: true)
                + ["ALTER TABLE schema_version RENAME COLUMN appliedat TO applied_at"]),
        // Issue 37 item 2: the zones each device reported, and the operator's zone for it.
        Migration(version: 10, name: "v10-time-zones", statements: timeZoneStatements),
        // Issue 38 item 1: each checkpoint's newest sample time, and the stretches of the
        // timelines inserts marked to redo (PostgresTrackStore+Timeline.swift).
        timelinePendingMigration,
        // Issue 38 item 5, as SQLite's `v15-import-digest`: an HTTP import's declared digest and
        // the hash of what its checkpoint covers.
        Migration(
            version: 12, name: "v12-import-digest",
            statements: [
                "ALTER TABLE import_job ADD COLUMN digest TEXT", "ALTER TABLE import_job ADD COLUMN prefix TEXT",
            ]),
        // Issue 38 item 1, as SQLite's `v16-timeline-pending-until`: where each marked stretch ends.
        Migration(
            version: 13, name: "v13-timeline-pending-until",
            statements: ["ALTER TABLE timeline_pending ADD COLUMN until_at BIGINT"]),
        // Issue 42 item 1, as SQLite's `v17-vertical-accuracy`: the record's vertical accuracy.
        Migration(
            version: 14, name: "v14-vertical-accuracy",
            statements: ["ALTER TABLE sample ADD COLUMN vacc DOUBLE PRECISION"]),
    ]

    /// Brings the schema up to date on one connection of its own, in one transaction under an
    /// advisory lock, so servers starting together on a new database migrate it once.
    /// - Throws: ``PostgresStoreError`` when the server cannot be reached, refuses the login, or
    ///   holds a newer schema than this build knows.
    /// - Parameter version: migrate no further than this (tests build an older schema with it).
    static func migrate(
        _ configuration: PostgresStoreConfiguration, logger: Logger, upTo version: Int64 = .max
    ) async throws {
        try await withConnection(configuration, logger: logger) { connection in
            try await applyMigrations(connection, configuration, logger: logger, upTo: version)
        }
    }

    /// `body` on a connection of its own (not the pool), closed afterwards; errors explained.
    static func withConnection(
        _ configuration: PostgresStoreConfiguration, logger: Logger,
        _ body: (PostgresConnection) async throws -> Void
    ) async throws {
        var connectionConfiguration = PostgresConnection.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        connectionConfiguration.options.additionalStartupParameters = startupParameters(configuration)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: connectionConfiguration, id: 0, logger: logger)
        } catch {
            throw PostgresStoreError.explaining(error, configuration)
        }
        do {
            try await body(connection)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw PostgresStoreError.explaining(error, configuration)
        }
    }

    private static func applyMigrations(
        _ connection: PostgresConnection, _ configuration: PostgresStoreConfiguration, logger: Logger,
        upTo version: Int64
    ) async throws {
        try await connection.query("BEGIN", logger: logger)
        do {
            let schema = configuration.schema ?? ""
            try await connection.query(
                "SELECT pg_advisory_xact_lock(74657313, hashtext(\(schema)))", logger: logger)
            if let name = configuration.schema, PostgresStoreConfiguration.isPlainIdentifier(name) {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \"\(name)\""), logger: logger)
            }
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_version (
                    version BIGINT PRIMARY KEY, name TEXT NOT NULL, appliedat TIMESTAMPTZ NOT NULL DEFAULT now())
                """,
                logger: logger)
            let applied = Set(
                try await connection.query("SELECT version FROM schema_version", logger: logger).collect().map {
                    try $0.decode(Int64.self)
                })
            let current = applied.max() ?? 0
            let known = migrations.last?.version ?? 0
            guard current <= known else {
                throw PostgresStoreError(
                    "the database \(configuration.redacted) is at schema version \(current), newer than this "
                        + "bgtrack knows (\(known)); run the bgtrack that migrated it, or a newer one")
            }
            // Every migration not applied yet, not only those above the highest: versions may have
            // gaps (branches took numbers ahead of each other) and fill in later.
            for migration in migrations.sorted(by: { $0.version < $1.version })
            where !applied.contains(migration.version) && migration.version <= version {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO schema_version (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger)
                logger.info("migrated", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
            try await connection.query("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Drops the store's schema and everything in it (tests give each test a schema and drop it).
    package static func dropSchema(_ configuration: PostgresStoreConfiguration, logger: Logger) async throws {
        guard let name = configuration.schema, PostgresStoreConfiguration.isPlainIdentifier(name) else { return }
        try await withConnection(configuration, logger: logger) { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(name)\" CASCADE"), logger: logger)
        }
    }
}
