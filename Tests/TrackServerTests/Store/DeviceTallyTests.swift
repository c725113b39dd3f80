import BackgroundCore
import GRDB
import Testing

@testable import TrackServer

/// `/healthz`, `/metrics`, the pages and the alert loop list the devices with their counts: the
/// counts are kept in the device row, so listing costs the same at 4 M samples as at none.
@Suite("Device counts kept, not counted (issue 23, item 4)")
struct DeviceTallyTests {
    @Test func listingDevicesReadsNoSampleOrQuarantineRow() async throws {
        let store = try SQLiteTrackStore.inMemory()
        let plan = try await store.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + SQLiteTrackStore.deviceQuery).map {
                $0["detail"] as String
            }
        }
        #expect(!plan.isEmpty)
        #expect(!plan.contains { $0.contains("sample") || $0.contains("rejected_point") }, "\(plan)")
    }

    @Test func theMigrationCountsWhatADatabaseAlreadyHolds() async throws {
        let queue = try DatabaseQueue()
        try SQLiteTrackStore.migrator.migrate(queue, upTo: "v4-rejected-points")
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO device (id, name, tokenHash, createdAt) VALUES (1, 'a', 'h', 0)")
            try db.execute(sql: "INSERT INTO device (id, name, tokenHash, createdAt) VALUES (2, 'b', 'g', 0)")
            for index in 0..<7 {
                try db.execute(
                    sql: """
                        INSERT INTO sample (deviceId, key, t, lat, lon, source, receivedAt)
                        VALUES (1, ?, ?, 1, 1, 'native', 0)
                        """,
                    arguments: ["k\(index)", index])
            }
            try db.execute(
                sql: """
                    INSERT INTO rejected_point (deviceId, source, reason, raw, receivedAt)
                    VALUES (2, 'osmand', 'r', '', 0)
                    """)
        }
        let store = try SQLiteTrackStore(writer: queue)
        let devices = try await store.devices()
        #expect(devices.map(\.sampleCount) == [7, 0])
        #expect(devices.map(\.rejectedCount) == [0, 1])
        _ = try await store.insert(
            [
                TrackSample(
                    key: "new", values: SampleValues(time: Instant(milliseconds: 99), latitude: 1, longitude: 1),
                    source: .native)
            ],
            device: "a", at: Instant(milliseconds: 100))
        #expect(try await store.device(named: "a")?.sampleCount == 8)
    }
}
