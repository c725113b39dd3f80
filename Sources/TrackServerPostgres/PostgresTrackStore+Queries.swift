import BackgroundCore
import Logging
import PostgresNIO
import TrackServer

extension PostgresTrackStore {
    static let deviceQuery = """
        SELECT d.name, d.created_at, d.revoked_at, d.last_seen_at, d.silent_after_ms, d.sample_count,
            (SELECT a.silent_since FROM alert_state a WHERE a.device_id = d.id) AS silent_since, d.rejected_count
        FROM device d
        """

    /// Runs one statement on a pooled connection (autocommit), its errors explained.
    func run(_ query: PostgresQuery) async throws {
        _ = try await rows(query)
    }

    /// The rows of one query on a pooled connection, its errors explained.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        do {
            return try await client.query(query, logger: logger).collect()
        } catch {
            throw PostgresStoreError.explaining(error, configuration)
        }
    }

    /// `body` inside `BEGIN … COMMIT` on one connection: when this returns, the commit did; when it
    /// throws, the transaction was rolled back (or the connection is gone, which rolls it back).
    ///
    /// Errors thrown by `body` come out as they are (``TrackStoreError`` stays itself);
    /// PostgreSQL's are explained.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withConnection { connection in
                try await connection.query("BEGIN", logger: logger)
                let value: T
                do {
                    value = try await body(connection)
                } catch {
                    // A failed ROLLBACK means the connection is broken: the server rolls back.
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
                try await connection.query("COMMIT", logger: logger)
                return value
            }
        } catch let error as PSQLError {
            throw PostgresStoreError.explaining(error, configuration)
        }
    }

    /// The id of an active device, or ``TrackStoreError/unknownDevice(_:)``.
    static func deviceID(_ connection: PostgresConnection, _ name: String, logger: Logger) async throws -> Int64 {
        let found = try await connection.query(
            "SELECT id FROM device WHERE name = \(name) AND revoked_at IS NULL", logger: logger
        ).collect()
        guard let row = found.first else { throw TrackStoreError.unknownDevice(name) }
        return try row.decode(Int64.self)
    }

    static func device(from row: PostgresRow) throws -> DeviceRecord {
        let (name, createdAt, revokedAt, lastSeenAt, silentAfterMs, sampleCount, silentSince, rejectedCount) =
            try row.decode((String, Int64, Int64?, Int64?, Int64?, Int64, Int64?, Int64).self)
        return DeviceRecord(
            name: name,
            createdAt: Instant(milliseconds: createdAt),
            revokedAt: revokedAt.map(Instant.init(milliseconds:)),
            lastSeenAt: lastSeenAt.map(Instant.init(milliseconds:)),
            sampleCount: Int(sampleCount),
            silentAfter: silentAfterMs.map { .milliseconds($0) },
            silentSince: silentSince.map(Instant.init(milliseconds:)),
            rejectedCount: Int(rejectedCount)
        )
    }
}
