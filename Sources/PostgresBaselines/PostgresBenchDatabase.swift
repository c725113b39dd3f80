import Foundation
package import Logging
package import PostgresNIO
package import TrackServerPostgres

/// Connections and throwaway schemas for the PostgreSQL benchmarks and their tests.
package enum PostgresBenchDatabase {
    /// Runs `body` with `base` moved to a new schema of its own (made by the store's migrations
    /// when `body` opens a store), and drops that schema afterwards, whatever happened.
    package static func withFreshSchema<T: Sendable>(
        _ base: PostgresStoreConfiguration, logger: Logger,
        _ body: (PostgresStoreConfiguration) async throws -> T
    ) async throws -> T {
        var configuration = base
        configuration.schema = "bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        do {
            let result = try await body(configuration)
            try await PostgresTrackStore.dropSchema(configuration, logger: logger)
            return result
        } catch {
            try? await PostgresTrackStore.dropSchema(configuration, logger: logger)
            throw error
        }
    }

    /// One connection of its own with the store's settings (plain TCP, `search_path` = the schema).
    package static func connect(_ configuration: PostgresStoreConfiguration, logger: Logger) async throws
        -> PostgresConnection
    {
        var options = PostgresConnection.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        if let schema = configuration.schema {
            options.options.additionalStartupParameters = [("search_path", "\"\(schema)\"")]
        }
        return try await PostgresConnection.connect(configuration: options, id: 1, logger: logger)
    }

    /// The first column of the first row of `query`.
    package static func scalar<T: PostgresDecodable>(
        _ connection: PostgresConnection, _ query: PostgresQuery, as type: T.Type, logger: Logger
    ) async throws -> T {
        guard let row = try await connection.query(query, logger: logger).collect().first else {
            throw PostgresBenchError("\(query.sql) returned no row")
        }
        return try row.decode(T.self)
    }

    /// The server's version and the settings every side of the run shares (durability above all).
    package static func settings(_ configuration: PostgresStoreConfiguration, logger: Logger) async throws -> String {
        let connection = try await connect(configuration, logger: logger)
        do {
            var shown: [String] = []
            for name in ["server_version", "synchronous_commit", "fsync", "wal_sync_method", "shared_buffers"] {
                let value = try await scalar(
                    connection, PostgresQuery(unsafeSQL: "SHOW \(name)"), as: String.self, logger: logger)
                shown.append("\(name) \(value)")
            }
            try await connection.close()
            return shown.joined(separator: ", ")
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// A benchmark run that did not do the work it was to measure; the message says what.
package struct PostgresBenchError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
