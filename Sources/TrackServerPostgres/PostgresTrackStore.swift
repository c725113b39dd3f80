public import BackgroundCore
public import Logging
import PostgresNIO
public import TrackServer

/// The PostgreSQL store: several stateless `bgtrack serve` processes share one database.
///
/// The same contract as ``SQLiteTrackStore`` (`TrackStoreContract` runs on both): a write that
/// carries samples is one transaction, and a method returns only after its commit. Samples go in
/// as `INSERT … SELECT FROM unnest(…) ON CONFLICT (device_id, key) DO NOTHING RETURNING key`, an
/// array bind per column, so a key the device already has, stored through this server or another,
/// is a duplicate.
///
/// PostgresNIO's client needs a running task for its connection pool, so the store lives inside
/// ``withStore(_:logger:_:)``:
///
/// ```swift
/// let configuration = try PostgresStoreConfiguration(url: "postgres://bgtrack@127.0.0.1/tracks")
/// try await PostgresTrackStore.withStore(configuration, logger: logger) { store in
///     try await buildApplication(TrackServerEnvironment(store: store, logger: logger)).runService()
/// }
/// ```
public struct PostgresTrackStore: TrackStore {
    let client: PostgresClient
    let configuration: PostgresStoreConfiguration
    let logger: Logger

    /// Connects, migrates, runs `body` with the store, and closes every connection when it returns.
    ///
    /// One connection is opened first to check the server and run the migrations, so a wrong URL,
    /// a stopped server or a missing database fails here with a message saying which.
    /// - Parameters:
    ///   - configuration: where to connect (see ``PostgresStoreConfiguration/init(url:)``).
    ///   - logger: for the connection pool's background events.
    /// - Throws: ``PostgresStoreError`` when the server cannot be reached or migrated; whatever
    ///   `body` throws.
    public static func withStore<Result: Sendable>(
        _ configuration: PostgresStoreConfiguration, logger: Logger,
        _ body: (PostgresTrackStore) async throws -> Result
    ) async throws -> Result {
        try await migrate(configuration, logger: logger)
        let client = PostgresClient(
            configuration: clientConfiguration(configuration), backgroundLogger: logger)
        let store = PostgresTrackStore(client: client, configuration: configuration, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }

    static func clientConfiguration(_ configuration: PostgresStoreConfiguration) -> PostgresClient.Configuration {
        var client = PostgresClient.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        client.options.maximumConnections = configuration.maximumConnections
        client.options.additionalStartupParameters = startupParameters(configuration)
        return client
    }

    static func startupParameters(_ configuration: PostgresStoreConfiguration) -> [(String, String)] {
        configuration.schema.map { [("search_path", "\"\($0)\"")] } ?? []
    }

    public func addDevice(name: String, tokenHash: String, at now: Instant) async throws -> DeviceRecord {
        do {
            try await run("INSERT INTO device (name, token_hash, created_at) VALUES (\(name), \(tokenHash), \(now.ms))")
        } catch let error as PostgresStoreError where error.sqlState == "23505" {
            throw TrackStoreError.duplicateName(name)
        }
        return DeviceRecord(name: name, createdAt: now, revokedAt: nil, lastSeenAt: nil, sampleCount: 0)
    }

    public func addOperator(name: String, tokenHash: String, at now: Instant) async throws {
        do {
            try await run(
                "INSERT INTO operator (name, token_hash, created_at) VALUES (\(name), \(tokenHash), \(now.ms))")
        } catch let error as PostgresStoreError where error.sqlState == "23505" {
            throw TrackStoreError.duplicateName(name)
        }
    }

    public func devices() async throws -> [DeviceRecord] {
        try await rows(PostgresQuery(unsafeSQL: Self.deviceQuery + " ORDER BY d.name")).map(Self.device(from:))
    }

    public func device(named name: String) async throws -> DeviceRecord? {
        var binds = PostgresBindings()
        binds.append(name)
        return try await rows(PostgresQuery(unsafeSQL: Self.deviceQuery + " WHERE d.name = $1", binds: binds))
            .first.map(Self.device(from:))
    }

    public func revokeDevice(named name: String, at now: Instant) async throws -> Bool {
        try await transaction { connection in
            let changed = try await connection.query(
                "UPDATE device SET revoked_at = \(now.ms) WHERE name = \(name) AND revoked_at IS NULL RETURNING id",
                logger: logger
            ).collect()
            try await connection.query(
                """
                UPDATE session SET revoked_at = \(now.ms)
                WHERE revoked_at IS NULL AND device_id = (SELECT id FROM device WHERE name = \(name))
                """,
                logger: logger)
            // Its share links end with it (issue 41 item 4): a revoked device shares nothing.
            try await connection.query(
                """
                UPDATE share_link SET revoked_at = \(now.ms)
                WHERE revoked_at IS NULL AND device_id = (SELECT id FROM device WHERE name = \(name))
                """,
                logger: logger)
            return !changed.isEmpty
        }
    }

    public func owner(ofTokenHash hash: String, at now: Instant) async throws -> TokenOwner? {
        // One round trip: every authenticated request runs this.
        let found = try await rows(
            """
            SELECT 'd' AS kind, name FROM device WHERE token_hash = \(hash) AND revoked_at IS NULL
            UNION ALL
            SELECT 'o', name FROM operator WHERE token_hash = \(hash) AND revoked_at IS NULL
            UNION ALL
            SELECT 's', d.name FROM session s JOIN device d ON d.id = s.device_id
            WHERE s.token_hash = \(hash) AND s.revoked_at IS NULL AND s.expires_at > \(now.ms) AND d.revoked_at IS NULL
            """)
        var owners: [String: String] = [:]
        for row in found {
            let (kind, name) = try row.decode((String, String).self)
            owners[kind] = owners[kind] ?? name
        }
        if let name = owners["d"] { return .device(name) }
        if let name = owners["o"] { return .operator(name) }
        return owners["s"].map { .session(device: $0, tokenHash: hash) }
    }

    public func createSession(device: String, tokenHash: String, expiresAt: Instant, at now: Instant) async throws {
        try await transaction { connection in
            let deviceID = try await Self.deviceID(connection, device, logger: logger)
            try await connection.query(
                """
                INSERT INTO session (token_hash, device_id, created_at, expires_at)
                VALUES (\(tokenHash), \(deviceID), \(now.ms), \(expiresAt.ms))
                """,
                logger: logger)
            try await connection.query(
                "UPDATE device SET last_seen_at = \(now.ms) WHERE id = \(deviceID)", logger: logger)
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await rows(
            """
            SELECT d.name, s.expires_at, s.revoked_at FROM session s JOIN device d ON d.id = s.device_id
            WHERE s.token_hash = \(tokenHash)
            """
        ).first.map { row in
            let (name, expiresAt, revokedAt) = try row.decode((String, Int64, Int64?).self)
            return SessionRecord(
                device: name, expiresAt: Instant(milliseconds: expiresAt),
                revokedAt: revokedAt.map(Instant.init(milliseconds:)))
        }
    }

    public func extendSession(tokenHash: String, to expiresAt: Instant, at now: Instant) async throws {
        try await transaction { connection in
            try await connection.query(
                "UPDATE session SET expires_at = \(expiresAt.ms) WHERE token_hash = \(tokenHash) AND revoked_at IS NULL",
                logger: logger)
            try await connection.query(
                """
                UPDATE device SET last_seen_at = \(now.ms)
                WHERE id = (SELECT device_id FROM session WHERE token_hash = \(tokenHash))
                """,
                logger: logger)
        }
    }

    public func revokeSession(tokenHash: String, at now: Instant) async throws {
        try await run(
            "UPDATE session SET revoked_at = \(now.ms) WHERE token_hash = \(tokenHash) AND revoked_at IS NULL")
    }
}

extension Instant {
    /// Epoch milliseconds, as every time column holds them (BIGINT, as in the SQLite store).
    var ms: Int64 { milliseconds }
}
