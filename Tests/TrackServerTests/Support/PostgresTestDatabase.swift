import Foundation
import Logging
import Testing
import TrackServer
import TrackServerPostgres

/// The PostgreSQL the tests may use: `BGTRACK_TEST_POSTGRES_URL` (CI starts one with
/// scripts/postgres-temp.sh). Unset, the PostgreSQL tests are reported as skipped.
enum PostgresTestDatabase {
    static let url: String? = ProcessInfo.processInfo.environment["BGTRACK_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Quiet: the migrations log at info for operators, not for test output.
    static let logger = Logger(label: "bgtrack.test.postgres") { _ in SwiftLogNoOpLogHandler() }

    /// A configuration for a fresh schema of its own: tests run in parallel on one database.
    static func freshConfiguration() throws -> PostgresStoreConfiguration {
        guard let url else {
            throw PostgresStoreError.testDatabaseMissing
        }
        var configuration = try PostgresStoreConfiguration(url: url)
        configuration.schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        configuration.maximumConnections = 4
        return configuration
    }

    /// Runs `body` with a store in a fresh schema, dropped afterwards.
    static func withStore<T: Sendable>(_ body: (PostgresTrackStore) async throws -> T) async throws -> T {
        let configuration = try freshConfiguration()
        return try await withSchema(configuration) {
            try await PostgresTrackStore.withStore(configuration, logger: logger, body)
        }
    }

    /// Runs `body`, then drops `configuration`'s schema whatever happened.
    static func withSchema<T: Sendable>(
        _ configuration: PostgresStoreConfiguration, _ body: () async throws -> T
    ) async throws -> T {
        do {
            let result = try await body()
            try await PostgresTrackStore.dropSchema(configuration, logger: logger)
            return result
        } catch {
            try? await PostgresTrackStore.dropSchema(configuration, logger: logger)
            throw error
        }
    }
}

extension PostgresStoreError {
    static var testDatabaseMissing: Self {
        PostgresStoreError(
            "BGTRACK_TEST_POSTGRES_URL is not set; start a database with scripts/postgres-temp.sh and export its URL")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when a PostgreSQL is configured; otherwise it is reported as skipped.
    static var postgres: Self {
        .enabled(
            if: PostgresTestDatabase.url != nil,
            "BGTRACK_TEST_POSTGRES_URL is not set (scripts/postgres-temp.sh starts a database)")
    }
}
