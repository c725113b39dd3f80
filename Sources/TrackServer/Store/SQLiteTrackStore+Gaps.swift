public import BackgroundCore
import GRDB
public import LocationLog

/// The intervals the phone reported (``GapStore``).
extension SQLiteTrackStore: GapStore {
    /// Migration `v8-gap-intervals`.
    static let gapIntervalTable = """
        CREATE TABLE gap_interval (
            id INTEGER PRIMARY KEY,
            deviceId INTEGER NOT NULL REFERENCES device(id),
            gapId TEXT NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            reason TEXT NOT NULL,
            detail TEXT,
            receivedAt INTEGER NOT NULL,
            UNIQUE (deviceId, gapId)
        );
        CREATE INDEX gap_interval_device_start ON gap_interval(deviceId, start);
        """

    /// A resent gap changes nothing, but for a late cause (docs/protocol.md §Gaps): the same reason
    /// and interval, with a detail that begins with the stored one and adds to it (MetricKit's exit
    /// counts, a day after the kill). The same condition for both stores.
    package static let lateCause = """
        gap_interval.reason = excluded.reason AND gap_interval.start = excluded.start
            AND gap_interval."end" = excluded."end" AND excluded.detail IS NOT NULL
            AND length(excluded.detail) > length(coalesce(gap_interval.detail, ''))
            AND substr(excluded.detail, 1, length(coalesce(gap_interval.detail, ''))) = coalesce(gap_interval.detail, '')
        """

    public func insertGaps(_ gaps: [IngestGap], device: String, at now: Instant) async throws {
        let lateCause = Self.lateCause
        try await writer.write { db in
            guard let id = try Self.deviceID(db, device) else { throw TrackStoreError.unknownDevice(device) }
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO gap_interval (device_id, gap_id, start, "end", reason, detail, received_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, gap_id) DO UPDATE SET detail = excluded.detail
                    WHERE \(lateCause)
                    """)
            for gap in gaps {
                try statement.execute(arguments: [
                    id, gap.id, gap.interval.start.milliseconds, gap.interval.end.milliseconds,
                    gap.interval.reason, gap.interval.detail, now.milliseconds,
                ])
            }
        }
    }

    public func reportedIntervals(device: String, from: Instant, to: Instant) async throws -> [ReportedInterval] {
        try await writer.read { db in
            guard let id = try Self.deviceID(db, device) else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT start, "end", reason, detail FROM gap_interval
                    WHERE device_id = ? AND start < ? AND ("end" > ? OR ("end" = start AND start = ?))
                    ORDER BY start, "end", gap_id
                    """,
                arguments: [id, to.milliseconds, from.milliseconds, from.milliseconds]
            ).compactMap { row in
                // Rows are written only from validated intervals; one this build does not know is skipped.
                guard let raw: String = row["reason"] else { return nil }
                return ReportedInterval(
                    start: Instant(milliseconds: row["start"]), end: Instant(milliseconds: row["end"]),
                    reason: raw, detail: row["detail"])
            }
        }
    }
}
