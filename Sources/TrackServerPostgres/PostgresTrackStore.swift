import BackgroundCore
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
public struct PostgresTrackStore: TrackStore, Sendable {
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
}

extension Instant {
    /// Epoch milliseconds, as every time column holds them (BIGINT, as in the SQLite store).
    var ms: Int64 { milliseconds }
}
