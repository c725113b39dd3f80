import BackgroundCore
import Foundation
import GRDB
import LocationLog
import Testing
import TrackGeometry
import TrackServer

/// Issue 38 item 1: SQLite `v14-timeline-pending` on a database a server before it left: history
/// imported after live uploads was never in the device's timeline; after the migration the
/// device's next read has it, and a device without imports is not rebuilt.
@Suite("Timeline marks: SQLite v14-timeline-pending (issue 38)")
struct TimelinePendingMigrationTests {
    @Test func historyImportedBeforeTheMigrationReachesTheNextRead() async throws {
        let queue = try DatabaseQueue()
        try SQLiteTrackStore.migrator.migrate(queue, upTo: "v13-time-zones")
        let samples = TimelineContract.daySamples()
        let half = samples.count / 2
        // The server before took the live second half; the first half was imported after it.
        var builder = TimelineBuilder()
        for sample in samples[half...] {
            _ = builder.add(
                SampleValues(
                    time: sample.time, latitude: sample.latitude, longitude: sample.longitude,
                    accuracy: sample.accuracy))
        }
        let checkpoint = String(decoding: try JSONEncoder().encode(builder), as: UTF8.self)
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO device (name, token_hash, created_at) VALUES ('a', 'ha', 1), ('b', 'hb', 1)")
            for (device, rows) in [("a", samples), ("b", Array(samples[half...]))] {
                for sample in rows {
                    try db.execute(
                        sql: """
                            INSERT INTO sample (device_id, key, t, lat, lon, acc, source, received_at)
                            VALUES ((SELECT id FROM device WHERE name = ?), ?, ?, ?, ?, ?, 'native', 0)
                            """,
                        arguments: [
                            device, sample.key, sample.time.milliseconds, sample.latitude, sample.longitude,
                            sample.accuracy,
                        ])
                }
                try db.execute(
                    sql: "INSERT INTO timeline_state (device_id, builder) SELECT id, ? FROM device WHERE name = ?",
                    arguments: [checkpoint, device])
            }
            try db.execute(
                sql: """
                    INSERT INTO import_job (device_id, fingerprint, format, records, bytes, points, added, duplicates,
                        rejected, finished, updated_at)
                    SELECT id, 'fp', 'gpx', 60, 6000, 60, 60, 0, 0, TRUE, 1 FROM device WHERE name = 'a'
                    """)
        }
        try SQLiteTrackStore.migrator.migrate(queue)
        let newest = samples.map(\.time.milliseconds).max()
        let state = try await queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.name, s.newest_at, p.from_at FROM device d JOIN timeline_state s ON s.device_id = d.id
                    LEFT JOIN timeline_pending p ON p.device_id = d.id ORDER BY d.name
                    """
            ).map { row in [row[0] as String, "\(row[1] as Int64? ?? -1)", "\(row[2] as Int64? ?? -1)"] }
        }
        #expect(
            state == [
                ["a", "\(newest ?? 0)", "\(samples[0].time.milliseconds)"],
                ["b", "\(newest ?? 0)", "-1"],
            ])
        let store = try SQLiteTrackStore(writer: queue)
        let updater = TimelineUpdater(store: store, settings: .init(), logger: TimelineContract.quiet)
        #expect(try await TimelineContract.all(updater) == TimelineContract.offline(samples))
        #expect(await updater.rebuilds == 1)
        #expect(try await store.timelinePending(device: "a") == nil, "the rebuild cleared the mark")
    }
}
