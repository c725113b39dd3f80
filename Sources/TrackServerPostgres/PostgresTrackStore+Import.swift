public import BackgroundCore
import Logging
import PostgresNIO
public import TrackServer

extension PostgresTrackStore: ImportStore {
    public func importCheckpoint(device: String, fingerprint: String) async throws -> ImportCheckpoint? {
        let found = try await rows(
            """
            SELECT j.fingerprint, j.format, j.records, j.bytes, j.points, j.added, j.duplicates, j.rejected, j.finished,
                j.digest, j.prefix
            FROM import_job j JOIN device d ON d.id = j.device_id WHERE d.name = \(device) AND j.fingerprint = \(fingerprint)
            """)
        guard let row = found.first else { return nil }
        let (print, format, records, bytes, points, added, duplicates, rejected, finished, digest, prefix) =
            try row.decode((String, String, Int64, Int64, Int64, Int64, Int64, Int64, Bool, String?, String?).self)
        return ImportCheckpoint(
            fingerprint: print, format: format, records: Int(records), bytes: bytes, points: Int(points),
            added: Int(added), duplicates: Int(duplicates), rejected: Int(rejected), finished: finished,
            digest: digest, prefix: prefix)
    }

    public func commitImport(
        _ samples: [TrackSample], device: String, checkpoint: ImportCheckpoint, at now: Instant
    ) async throws -> Int {
        try await retryingDeadlocks {
            try await transaction { connection in
                let deviceID = try await Self.deviceID(connection, device, logger: logger)
                let outcome = try await Self.insertRows(
                    connection, samples, deviceID: deviceID, now: now, logger: logger)
                let added = outcome.accepted.count
                // The imported days are drawn on the map once the detail worker has been through them,
                // and the timeline redoes the stretch from the earliest (no server was told of these).
                try await Self.markPending(
                    connection, deviceID: deviceID, samples: samples, outcome: outcome, imported: true,
                    logger: logger)
                // Not `seen`: an import is old history, not a sign of life from the phone.
                try await connection.query(
                    "UPDATE device SET sample_count = sample_count + \(Int64(added)) WHERE id = \(deviceID)",
                    logger: logger)
                try await connection.query(
                    """
                    INSERT INTO import_job (device_id, fingerprint, format, records, bytes, points, added, duplicates,
                        rejected, finished, updated_at, digest, prefix)
                    VALUES (\(deviceID), \(checkpoint.fingerprint), \(checkpoint.format), \(Int64(checkpoint.records)),
                        \(checkpoint.bytes), \(Int64(checkpoint.points)), \(Int64(checkpoint.added + added)),
                        \(Int64(checkpoint.duplicates + samples.count - added)), \(Int64(checkpoint.rejected)),
                        \(checkpoint.finished), \(now.ms), \(checkpoint.digest), \(checkpoint.prefix))
                    ON CONFLICT (device_id, fingerprint) DO UPDATE SET format = excluded.format,
                        records = excluded.records, bytes = excluded.bytes, points = excluded.points,
                        added = excluded.added, duplicates = excluded.duplicates, rejected = excluded.rejected,
                        finished = excluded.finished, updated_at = excluded.updated_at, digest = excluded.digest,
                        prefix = excluded.prefix
                    """,
                    logger: logger)
                return added
            }
        }
    }
}
