import BackgroundCore
import Testing
import TrackServer
import TrackServerPostgres

/// What only the PostgreSQL store has: its URL, its error messages, its own failure modes.
@Suite("PostgreSQL store: configuration and errors")
struct PostgresConfigurationTests {
    @Test func aFullURLParses() throws {
        let configuration = try PostgresStoreConfiguration(
            url: "postgres://bgtrack:s3cret@127.0.0.1:5433/tracks?schema=fleet_a&sslmode=disable")
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 5433)
        #expect(configuration.username == "bgtrack")
        #expect(configuration.password == "s3cret")
        #expect(configuration.database == "tracks")
        #expect(configuration.schema == "fleet_a")
        #expect(configuration.description == "bgtrack@127.0.0.1:5433/tracks?schema=fleet_a")
        #expect(try PostgresStoreConfiguration(url: "postgresql://u@db.local/t").port == 5432)
    }

    @Test(arguments: [
        ("127.0.0.1:5432/tracks", "is not a URL"),
        ("mysql://u@127.0.0.1/tracks", "does not start with postgres://"),
        ("postgres:///tracks", "has no host"),
        ("postgres://127.0.0.1:5432/tracks", "has no user name"),
        ("postgres://u@127.0.0.1:5432", "has no database name"),
        ("postgres://u@127.0.0.1:5432/", "has no database name"),
        ("postgres://u@127.0.0.1:99999/t", "port"),
        ("postgres://u@127.0.0.1/t?schema=Bad-Name", "has schema"),
        ("postgres://u@127.0.0.1/t?sslmode=require", "without TLS"),
        ("postgres://u@127.0.0.1/t?pool=9", "unknown parameter \"pool\""),
    ])
    func aMalformedURLSaysWhatIsWrong(url: String, problem: String) {
        let text = failure { _ = try PostgresStoreConfiguration(url: url) }
        #expect(text.contains(problem), "\(text)")
        #expect(text.contains("postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"))
    }

    @Test func aPasswordNeverAppearsInAMessage() {
        let sslmode = failure {
            _ = try PostgresStoreConfiguration(url: "postgres://u:hunter2@127.0.0.1/t?sslmode=verify-full")
        }
        #expect(sslmode.contains("***") && !sslmode.contains("hunter2"), "\(sslmode)")
        let port = failure { _ = try PostgresStoreConfiguration(url: "postgres://u:hunter2@127.0.0.1:77777/t") }
        #expect(port.contains("port") && !port.contains("hunter2"), "\(port)")
    }

    @Test func anUnreachableServerSaysSo() async throws {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let configuration = try PostgresStoreConfiguration(url: "postgres://u:hunter2@127.0.0.1:1/tracks")
        let failed = await failure {
            try await PostgresTrackStore.withStore(configuration, logger: PostgresTestDatabase.logger) { _ in }
        }
        #expect(failed.contains("cannot connect to PostgreSQL at 127.0.0.1:1"), "\(failed)")
        #expect(failed.contains("is the server running") && !failed.contains("hunter2"))
    }
}

@Suite("PostgreSQL store: on a live server")
struct PostgresLiveStoreTests {
    static let now = StoreContract.now

    @Test(.postgres) func aMissingDatabaseIsNamed() async throws {
        var configuration = try PostgresTestDatabase.freshConfiguration()
        configuration.database = "no_such_database_13"
        configuration.schema = nil
        let failed = await failure {
            try await PostgresTrackStore.withStore(configuration, logger: PostgresTestDatabase.logger) { _ in }
        }
        #expect(failed.contains("3D000") && failed.contains("no_such_database_13"), "\(failed)")
        #expect(failed.contains("createdb"))
    }

    /// A request whose rows PostgreSQL refuses (text cannot hold NUL) rolls back to its savepoint:
    /// its other rows go too, the other requests of the group are stored, and the next group works.
    @Test(.postgres) func aRefusedRequestRollsBackOnlyItself() async throws {
        try await PostgresTestDatabase.withStore { store in
            _ = try await store.addDevice(name: "a", tokenHash: "ha", at: Self.now)
            let results = try await store.insertGroup([
                GroupInsert(samples: [StoreContract.sample("k1", at: 1)], device: "a", now: Self.now),
                GroupInsert(
                    samples: [StoreContract.sample("k2", at: 2), StoreContract.sample("bad\u{0}key", at: 3)],
                    device: "a", now: Self.now),
                GroupInsert(samples: [StoreContract.sample("k4", at: 4)], device: "a", now: Self.now),
            ])
            #expect(try results[0].get().accepted == ["k1"])
            #expect(throws: PostgresStoreError.self) { try results[1].get() }
            #expect(try results[2].get().accepted == ["k4"])
            let stored = try await store.samples(device: "a", from: .epoch, to: Self.now).map(\.key)
            #expect(stored == ["k1", "k4"])
            await #expect(throws: PostgresStoreError.self) {
                try await store.insert([StoreContract.sample("x\u{0}", at: 5)], device: "a", at: Self.now)
            }
            #expect(
                try await store.insert([StoreContract.sample("k5", at: 5)], device: "a", at: Self.now).accepted == [
                    "k5"
                ])
        }
    }

    /// Two stores (two servers) on one schema storing the same and different batches at once:
    /// every key is stored exactly once, and each acknowledged key is in the database.
    @Test(.postgres) func twoStoresOnOneSchemaStoreEachSampleOnce() async throws {
        let configuration = try PostgresTestDatabase.freshConfiguration()
        try await PostgresTestDatabase.withSchema(configuration) {
            let logger = PostgresTestDatabase.logger
            try await PostgresTrackStore.withStore(configuration, logger: logger) { first in
                try await PostgresTrackStore.withStore(configuration, logger: logger) { second in
                    _ = try await first.addDevice(name: "a", tokenHash: "ha", at: Self.now)
                    let batches = (0..<20).map { batch in
                        (0..<50).map { StoreContract.sample("k\(batch * 25 + $0)", at: Int64(batch * 25 + $0)) }
                    }
                    let accepted = try await withThrowingTaskGroup(of: [String].self) { group in
                        for (index, batch) in batches.enumerated() {
                            for store in [first, second] {
                                group.addTask {
                                    let request = GroupInsert(samples: batch, device: "a", now: Self.now)
                                    if index.isMultiple(of: 2) {
                                        return try await store.insertGroup([request])[0].get().accepted
                                    }
                                    return try await store.insert(batch, device: "a", at: Self.now).accepted
                                }
                            }
                        }
                        return try await group.reduce(into: []) { $0 += $1 }
                    }
                    let expected = Set(batches.joined().map(\.key))
                    #expect(accepted.count == expected.count, "each key acknowledged as new exactly once")
                    #expect(Set(accepted) == expected)
                    let stored = try await second.samples(device: "a", from: .epoch, to: Self.now).map(\.key)
                    #expect(stored.count == expected.count)
                    #expect(Set(stored) == expected)
                }
            }
        }
    }
}

/// The description of what `body` throws; empty (and a recorded issue) if it does not throw.
func failure(_ body: () throws -> Void) -> String {
    do {
        try body()
    } catch {
        return "\(error)"
    }
    Issue.record("expected an error")
    return ""
}

func failure(_ body: () async throws -> Void) async -> String {
    do {
        try await body()
    } catch {
        return "\(error)"
    }
    Issue.record("expected an error")
    return ""
}
