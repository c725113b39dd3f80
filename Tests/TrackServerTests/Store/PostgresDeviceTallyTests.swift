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
        try await PostgresTestDatabase.withStore { store in
            _ = try await store.addDevice(name: "a", tokenHash: "ha", at: StoreContract.now)
            _ = try await store.insert(
                [StoreContract.sample("k1", at: 1), StoreContract.sample("k2", at: 2)], device: "a",
                at: StoreContract.now)
            try await store.quarantine(device: "a", source: .osmand, reason: "r", raw: "", at: StoreContract.now)
            // Back to what version 1 held, then the version 2 backfill again.
            try await store.run("UPDATE device SET samplecount = 0, rejectedcount = 0")
            let backfill = try #require(PostgresTrackStore.migrations.first { $0.version == 2 }?.statements.last)
            try await store.run(PostgresQuery(unsafeSQL: backfill))
            let device = try #require(try await store.device(named: "a"))
            #expect(device.sampleCount == 2 && device.rejectedCount == 1)
        }
    }
}
