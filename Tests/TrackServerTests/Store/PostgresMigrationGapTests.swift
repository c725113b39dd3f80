import BackgroundCore
import PostgresNIO
import Testing
import TrackServer

@testable import TrackServerPostgres

/// Branches take migration versions ahead of each other (share links took 7 while 4…6 were being
/// written): a database at a higher version still gets a lower one it lacks.
@Suite("PostgreSQL migrations fill version gaps")
struct PostgresMigrationGapTests {
    @Test func versionsNeedNotBeContiguousButAreUnique() {
        let versions = PostgresTrackStore.migrations.map(\.version)
        #expect(Set(versions).count == versions.count)
        #expect(versions.contains(7))
    }

    @Test(.postgres) func aMissingLowerVersionIsAppliedOnTheNextStart() async throws {
        try await PostgresTestDatabase.withStore { store in
            // A database that has 7 but not 3 (as one migrated by a branch without 3 would). It
            // has not had 9 either: 9 renames 3's column, so a branch without 3 stopped before it.
            try await store.run("DELETE FROM schema_version WHERE version IN (3, 9)")
            try await store.run("ALTER TABLE device DROP COLUMN owntracks_key")
            for (table, columns) in SnakeCaseColumns.renamed {
                for column in columns where column != "owntracksKey" {
                    let sql = "ALTER TABLE \(table) RENAME COLUMN \(SnakeCaseColumns.snakeCase(column)) TO \(column)"
                    try await store.run(PostgresQuery(unsafeSQL: sql))
                }
            }
            try await store.run("ALTER TABLE schema_version RENAME COLUMN applied_at TO appliedat")
            try await PostgresTrackStore.migrate(store.configuration, logger: PostgresTestDatabase.logger)
            let applied = try await store.rows("SELECT version FROM schema_version ORDER BY version")
                .map { try $0.decode(Int64.self) }
            #expect(applied.contains(3) && applied.contains(7) && applied.contains(9), "\(applied)")
            _ = try await store.addDevice(name: "a", tokenHash: "h", at: StoreContract.now)
            #expect(
                try await store.setOwnTracksKey(device: "a", OwnTracksKey(secret: "s")), "version 3's column is back")
        }
    }
}
