import BackgroundCore
import GRDB
import Testing

@testable import TrackServer

/// `insertGroup` on SQLite: one transaction, a savepoint per request.
@Suite("SQLite group insert: each request's rows stand or fall alone")
struct GroupInsertStoreTests {
    static let now = Instant(milliseconds: 1_732_244_800_000)

    func store() async throws -> SQLiteTrackStore {
        let store = try SQLiteTrackStore.inMemory()
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: Self.now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: Self.now)
        return store
    }

    func samples(_ points: [Int], latitude: (Int) -> Double = { 10 + Double($0) / 1000 }) -> [TrackSample] {
        points.map { point in
            let time = Self.now - .seconds(3_600) + .seconds(point)
            return TrackSample(
                key: "k\(point)", values: SampleValues(time: time, latitude: latitude(point), longitude: 20),
                source: .owntracks)
        }
    }

    @Test func aConstraintFailureRollsBackOnlyItsOwnRequest() async throws {
        let store = try await store()
        try await store.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_66 BEFORE INSERT ON sample WHEN NEW.lat = 66.6
                    BEGIN SELECT RAISE(ABORT, 'latitude 66.6 refused by a test trigger'); END
                    """)
        }
        let results = try await store.insertGroup([
            GroupInsert(samples: samples([1, 2]), device: "a", now: Self.now),
            // Its first row goes in, its second fails: the first must be rolled back too.
            GroupInsert(samples: samples([3, 4]) { $0 == 4 ? 66.6 : 10 }, device: "a", now: Self.now),
            GroupInsert(samples: samples([5]), device: "b", now: Self.now),
            GroupInsert(samples: samples([6]), device: "nobody", now: Self.now),
        ])
        #expect(try results[0].get() == InsertOutcome(accepted: ["k1", "k2"], duplicates: []))
        #expect(throws: DatabaseError.self) { try results[1].get() }
        #expect(try results[2].get() == InsertOutcome(accepted: ["k5"], duplicates: []))
        #expect(throws: TrackStoreError.unknownDevice("nobody")) { try results[3].get() }
        let stored = try await store.samples(device: "a", from: .epoch, to: Self.now).map(\.key)
        #expect(stored == ["k1", "k2"])
        #expect(try await store.device(named: "b")?.sampleCount == 1)
        #expect(try await store.device(named: "b")?.lastSeenAt == Self.now)
        // The failed row leaves no failure behind in the shared statement: the next commits work.
        let alone = try await store.insertGroup([GroupInsert(samples: samples([7]), device: "a", now: Self.now)])
        #expect(try alone[0].get() == InsertOutcome(accepted: ["k7"], duplicates: []))
        let failedAlone = try await store.insertGroup([
            GroupInsert(samples: samples([8]) { _ in 66.6 }, device: "a", now: Self.now)
        ])
        #expect(throws: DatabaseError.self) { try failedAlone[0].get() }
        #expect(try await store.insert(samples([9]), device: "a", at: Self.now).accepted == ["k9"])
        // The same through `insert` (the pipeline switched off).
        await #expect(throws: DatabaseError.self) {
            try await store.insert(samples([10]) { _ in 66.6 }, device: "a", at: Self.now)
        }
        #expect(try await store.insert(samples([11]), device: "a", at: Self.now).accepted == ["k11"])
    }

    @Test func duplicatesInOneGroupAreReportedNotFailed() async throws {
        let store = try await store()
        let results = try await store.insertGroup([
            GroupInsert(samples: samples([1, 2]), device: "a", now: Self.now),
            GroupInsert(samples: samples([2, 3]), device: "a", now: Self.now),
        ])
        #expect(try results[0].get() == InsertOutcome(accepted: ["k1", "k2"], duplicates: []))
        #expect(try results[1].get() == InsertOutcome(accepted: ["k3"], duplicates: ["k2"]))
        #expect(try await store.device(named: "a")?.sampleCount == 3)
    }

    /// The protocol's default (for a store without savepoints): one `insert` per request, the same
    /// results.
    @Test func theDefaultGroupInsertGivesTheSameResults() async throws {
        let store = try await store()
        let results = await store.insertEachAlone([
            GroupInsert(samples: samples([1]), device: "a", now: Self.now),
            GroupInsert(samples: samples([2]), device: "nobody", now: Self.now),
            GroupInsert(samples: samples([1, 3]), device: "a", now: Self.now),
        ])
        #expect(try results[0].get() == InsertOutcome(accepted: ["k1"], duplicates: []))
        #expect(throws: TrackStoreError.unknownDevice("nobody")) { try results[1].get() }
        #expect(try results[2].get() == InsertOutcome(accepted: ["k3"], duplicates: ["k1"]))
    }
}
