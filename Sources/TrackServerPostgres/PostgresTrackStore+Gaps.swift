public import BackgroundCore
public import LocationLog
import PostgresNIO
public import TrackServer

/// The intervals the phone reported (``GapStore``).
extension PostgresTrackStore: GapStore {
    /// Migration 5, `v5-gap-intervals`.
    static let gapIntervalStatements = [
        """
        CREATE TABLE gap_interval (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            deviceid BIGINT NOT NULL REFERENCES device(id),
            gapid TEXT NOT NULL,
            start BIGINT NOT NULL,
            "end" BIGINT NOT NULL,
            reason TEXT NOT NULL,
            detail TEXT,
            receivedat BIGINT NOT NULL,
            UNIQUE (deviceid, gapid)
        )
        """,
        "CREATE INDEX gap_interval_device_start ON gap_interval(deviceid, start)",
    ]

    public func insertGaps(_ gaps: [IngestGap], device: String, at now: Instant) async throws {
        try await transaction { connection in
            let id = try await Self.deviceID(connection, device, logger: logger)
            for gap in gaps {
                let detail = gap.interval.detail.map { Self.text($0, max: WireGap.maximumDetailLength) }
                try await connection.query(
                    """
                    INSERT INTO gap_interval (device_id, gap_id, start, "end", reason, detail, received_at)
                    VALUES (\(id), \(Self.text(gap.id, max: 64)), \(gap.interval.start.ms), \(gap.interval.end.ms),
                        \(gap.interval.reason), \(detail), \(now.ms))
                    ON CONFLICT (device_id, gap_id) DO UPDATE SET detail = excluded.detail
                    WHERE \(unescaped: SQLiteTrackStore.lateCause)
                    """,
                    logger: logger)
            }
        }
    }

    public func reportedIntervals(device: String, from: Instant, to: Instant) async throws -> [ReportedInterval] {
        try await rows(
            """
            SELECT g.start, g."end", g.reason, g.detail FROM gap_interval g JOIN device d ON d.id = g.device_id
            WHERE d.name = \(device) AND d.revoked_at IS NULL AND g.start < \(to.ms)
                AND (g."end" > \(from.ms) OR (g."end" = g.start AND g.start = \(from.ms)))
            ORDER BY g.start, g."end", g.gap_id
            """
        ).compactMap { row in
            let (start, end, raw, detail) = try row.decode((Int64, Int64, String, String?).self)
            // Rows are written only from validated intervals; one this build does not know is skipped.
            return ReportedInterval(
                start: Instant(milliseconds: start), end: Instant(milliseconds: end), reason: raw, detail: detail)
        }
    }
}
