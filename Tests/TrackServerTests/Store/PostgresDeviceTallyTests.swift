import BackgroundCore
import PostgresNIO
import Testing
import TrackServer

@testable import TrackServerPostgres

/// The PostgreSQL side of ``DeviceTallyTests``: the device list reads no sample row, and the
/// migration counts what a database of the previous schema holds.
@Suite("PostgreSQL device counts kept, not counted (issue 23, item 4)")
struct PostgresDeviceTallyTests {
    @Test(.postgres) func listingDevicesReadsNoSampleOrQuarantineRow() async throws {
        try await PostgresTestDatabase.withStore { store in
            let plan = try await store.rows(PostgresQuery(unsafeSQL: "EXPLAIN " + PostgresTrackStore.deviceQuery))
                .map { try $0.decode(String.self) }
            #expect(!plan.isEmpty)
            #expect(!plan.contains { $0.contains("sample") || $0.contains("rejected_point") }, "\(plan)")
        }
    }

    @Test(.postgres) func theMigrationCountsWhatADatabaseAlreadyHolds() async throws {
        let configuration = try PostgresTestDatabase.freshConfiguration()
        try await PostgresTestDatabase.withSchema(configuration) {
            // A database of version 1 (its column names), holding rows; then the later versions.
            try await PostgresTrackStore.migrate(configuration, logger: PostgresTestDatabase.logger, upTo: 1)
            try await PostgresTrackStore.withConnection(configuration, logger: PostgresTestDatabase.logger) {
                connection in
                for statement in [
                    "INSERT INTO device (name, tokenhash, createdat) VALUES ('a', 'ha', 0)",
                    """
                    INSERT INTO sample (deviceid, key, t, lat, lon, source, receivedat)
                    SELECT id, k, 1, 1, 1, 'native', 0 FROM device, (VALUES ('k1'), ('k2')) AS keys(k)
                    """,
                    """
                    INSERT INTO rejected_point (deviceid, source, reason, raw, receivedat)
                    SELECT id, 'osmand', 'r', '', 0 FROM device
                    """,
                ] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: PostgresTestDatabase.logger)
                }
            }
            try await PostgresTrackStore.withStore(configuration, logger: PostgresTestDatabase.logger) { store in
                let device = try #require(try await store.device(named: "a"))
                #expect(device.sampleCount == 2 && device.rejectedCount == 1)
            }
        }
    }
}
