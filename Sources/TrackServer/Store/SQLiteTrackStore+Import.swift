public import BackgroundCore
import GRDB

extension SQLiteTrackStore: ImportStore {
    static let importJobTableSQL = """
        CREATE TABLE import_job (
            id INTEGER PRIMARY KEY,
            deviceId INTEGER NOT NULL REFERENCES device(id),
            fingerprint TEXT NOT NULL,
            format TEXT NOT NULL,
            records INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            points INTEGER NOT NULL,
            added INTEGER NOT NULL,
            duplicates INTEGER NOT NULL,
            rejected INTEGER NOT NULL,
            finished INTEGER NOT NULL,
            updatedAt INTEGER NOT NULL,
            UNIQUE (deviceId, fingerprint)
        )
        """

    /// `v15-import-digest`: the digest a client declared for the file and the hash of the body's
    /// part its committed records lie in (``ImportCheckpoint/digest``, ``ImportCheckpoint/prefix``).
    static let importDigestMigration = """
        ALTER TABLE import_job ADD COLUMN digest TEXT;
        ALTER TABLE import_job ADD COLUMN prefix TEXT;
        """

    public func importCheckpoint(device: String, fingerprint: String) async throws -> ImportCheckpoint? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT j.* FROM import_job j JOIN device d ON d.id = j.device_id
                    WHERE d.name = ? AND j.fingerprint = ?
                    """,
                arguments: [device, fingerprint]
            ).map { row in
                ImportCheckpoint(
                    fingerprint: row["fingerprint"], format: row["format"], records: row["records"],
                    bytes: row["bytes"],
                    points: row["points"], added: row["added"], duplicates: row["duplicates"],
                    rejected: row["rejected"], finished: row["finished"], digest: row["digest"], prefix: row["prefix"])
            }
        }
    }

    public func commitImport(
        _ samples: [TrackSample], device: String, checkpoint: ImportCheckpoint, at now: Instant
    ) async throws -> Int {
        try await writer.write { db in
            guard let deviceID = try Self.deviceID(db, device) else { throw TrackStoreError.unknownDevice(device) }
            let statement = try db.cachedStatement(sql: Self.insertSQL)
            var added = 0
            var rows = NewRows(imported: true)
            for sample in samples {
                try statement.execute(arguments: Self.arguments(sample, deviceID: deviceID, now: now))
                if db.changesCount > 0 { rows.add(sample.time.milliseconds) }
                added += db.changesCount
            }
            // The imported days are drawn on the map once the detail worker has been through them
            // (they were never marked, so an import never reached the year map), and the timeline
            // redoes the stretch from the earliest (no server was told of these rows).
            try Self.markPending(db, deviceID: deviceID, rows: rows)
            // Not `markSeen`: an import is old history, not a sign of life from the phone.
            try db.execute(
                sql: "UPDATE device SET sample_count = sample_count + ? WHERE id = ?", arguments: [added, deviceID])
            try db.execute(
                sql: """
                    INSERT INTO import_job (device_id, fingerprint, format, records, bytes, points, added, duplicates,
                        rejected, finished, updated_at, digest, prefix)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (device_id, fingerprint) DO UPDATE SET format = excluded.format,
                        records = excluded.records, bytes = excluded.bytes, points = excluded.points,
                        added = excluded.added, duplicates = excluded.duplicates, rejected = excluded.rejected,
                        finished = excluded.finished, updated_at = excluded.updated_at, digest = excluded.digest,
                        prefix = excluded.prefix
                    """,
                arguments: [
                    deviceID, checkpoint.fingerprint, checkpoint.format, checkpoint.records, checkpoint.bytes,
                    checkpoint.points, checkpoint.added + added, checkpoint.duplicates + samples.count - added,
                    checkpoint.rejected, checkpoint.finished, now.milliseconds, checkpoint.digest, checkpoint.prefix,
                ])
            return added
        }
    }
}
