public import BackgroundCore
import GRDB
import LocationLog

/// Storing and reading samples (``SampleStore``); the paged reads are in +Track, the group
/// commit in +Group.
extension SQLiteTrackStore: SampleStore {
    public func insert(_ samples: [TrackSample], device: String, at now: Instant) async throws -> InsertOutcome {
        try await writer.write { db in
            try Self.insertRequest(db, GroupInsert(samples: samples, device: device, now: now))
        }
    }

    public func samples(device: String, from: Instant, to: Instant, limit: Int?) async throws -> [TrackSample] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.sampleColumns) FROM sample s JOIN device d ON d.id = s.device_id
                    WHERE d.name = ? AND s.t >= ? AND s.t < ? ORDER BY s.t, s.id LIMIT ?
                    """,
                // SQLite reads a negative LIMIT as "no limit".
                arguments: [device, from.milliseconds, to.milliseconds, limit.map { max(0, $0) } ?? -1]
            ).map(Self.sample(from:))
        }
    }

    public func sampleTally(device: String, from: Instant, to: Instant) async throws -> SampleTally {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*), COUNT(DISTINCT s.t) FROM sample s JOIN device d ON d.id = s.device_id
                    WHERE d.name = ? AND s.t >= ? AND s.t < ?
                    """,
                arguments: [device, from.milliseconds, to.milliseconds])
            return SampleTally(rows: row?[0] ?? 0, distinctTimes: row?[1] ?? 0)
        }
    }
}
