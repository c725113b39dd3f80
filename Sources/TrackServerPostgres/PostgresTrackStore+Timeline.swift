public import BackgroundCore
import LocationLog
import Logging
import PostgresNIO
public import TrackGeometry
public import TrackServer

extension PostgresTrackStore: TimelineStore {
    public func timelineCheckpoint(device: String) async throws -> String? {
        let found = try await rows(
            "SELECT builder FROM timeline_state WHERE device_id = (SELECT id FROM device WHERE name = \(device))")
        return try found.first?.decode(String.self)
    }

    public func saveTimeline(
        device: String, closed: [TimelineEntry], checkpoint: String, newest: Instant?, replacingFrom: Instant?,
        resumePoints: [TimelineCheckpoint], consuming: TimelinePending?
    ) async throws {
        let logger = logger
        try await transaction { connection in
            let id = try await Self.timelineDeviceID(connection, device, logger: logger)
            if let replacingFrom {
                try await connection.query(
                    "DELETE FROM timeline_entry WHERE device_id = \(id) AND start_at >= \(replacingFrom.ms)",
                    logger: logger)
                try await connection.query(
                    "DELETE FROM timeline_checkpoint WHERE device_id = \(id) AND newest_at >= \(replacingFrom.ms)",
                    logger: logger)
            }
            try await Self.insert(
                connection, device: id, closed: closed,
                resumePoints: resumePoints
                    + (newest.map { [TimelineCheckpoint(newest: $0, builder: checkpoint)] } ?? []),
                logger: logger)
            try await connection.query(
                """
                INSERT INTO timeline_state (device_id, builder, newest_at) VALUES (\(id), \(checkpoint), \(newest?.ms))
                ON CONFLICT (device_id) DO UPDATE SET builder = EXCLUDED.builder, newest_at = EXCLUDED.newest_at
                """, logger: logger)
            try await Self.consume(consuming, connection, device: id, logger: logger)
        }
    }

    /// The registered device's id, revoked or not, in a transaction; throws
    /// ``TrackStoreError/unknownDevice(_:)``.
    private static func timelineDeviceID(_ connection: PostgresConnection, _ device: String, logger: Logger)
        async throws
        -> Int64
    {
        let found = try await connection.query("SELECT id FROM device WHERE name = \(device)", logger: logger).collect()
        guard let row = found.first else { throw TrackStoreError.unknownDevice(device) }
        return try row.decode(Int64.self)
    }

    /// Clears the pending stretch a rebuild read, unless an insert has marked it since.
    private static func consume(
        _ consuming: TimelinePending?, _ connection: PostgresConnection, device id: Int64, logger: Logger
    ) async throws {
        guard let consuming else { return }
        try await connection.query(
            "DELETE FROM timeline_pending WHERE device_id = \(id) AND version = \(consuming.version)", logger: logger)
    }

    /// Stores entries and resume points (replacing any at the same key).
    private static func insert(
        _ connection: PostgresConnection, device id: Int64, closed: [TimelineEntry],
        resumePoints: [TimelineCheckpoint], logger: Logger
    ) async throws {
        for point in resumePoints {
            try await connection.query(
                """
                INSERT INTO timeline_checkpoint (device_id, newest_at, builder)
                VALUES (\(id), \(point.newest.ms), \(point.builder))
                ON CONFLICT (device_id, newest_at) DO UPDATE SET builder = EXCLUDED.builder
                """, logger: logger)
        }
        for entry in closed {
            let row = TimelineRow(entry)
            try await connection.query(
                """
                INSERT INTO timeline_entry (device_id, kind, start_at, end_at, latitude, longitude, end_latitude,
                    end_longitude, radius, distance, sample_count, inferred, mode)
                VALUES (\(id), \(row.kind), \(row.start), \(row.end), \(row.latitude), \(row.longitude),
                    \(row.endLatitude), \(row.endLongitude), \(row.radius), \(row.distance), \(row.sampleCount),
                    \(row.inferred), \(row.mode))
                ON CONFLICT (device_id, start_at, kind) DO UPDATE SET end_at = EXCLUDED.end_at,
                    latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude,
                    end_latitude = EXCLUDED.end_latitude, end_longitude = EXCLUDED.end_longitude,
                    radius = EXCLUDED.radius, distance = EXCLUDED.distance, sample_count = EXCLUDED.sample_count,
                    inferred = EXCLUDED.inferred, mode = EXCLUDED.mode
                """, logger: logger)
        }
    }

    public func timelineResumePoints(device: String, after: Instant, limit: Int) async throws
        -> [TimelineCheckpoint]
    {
        let found = try await rows(
            """
            SELECT newest_at, builder FROM timeline_checkpoint
            WHERE device_id = (SELECT id FROM device WHERE name = \(device)) AND newest_at > \(after.ms)
            ORDER BY newest_at LIMIT \(Int64(limit))
            """)
        return try found.map { row in
            let (newest, builder) = try row.decode((Int64, String).self)
            return TimelineCheckpoint(newest: Instant(milliseconds: newest), builder: builder)
        }
    }

    public func saveTimelineStretch(
        device: String, closed: [TimelineEntry], from: Instant, entriesBefore: Instant, resumePointsBefore: Instant,
        resumePoints: [TimelineCheckpoint], consuming: TimelinePending?
    ) async throws {
        let logger = logger
        try await transaction { connection in
            let id = try await Self.timelineDeviceID(connection, device, logger: logger)
            try await connection.query(
                """
                DELETE FROM timeline_entry
                WHERE device_id = \(id) AND start_at >= \(from.ms) AND start_at < \(entriesBefore.ms)
                """, logger: logger)
            try await connection.query(
                """
                DELETE FROM timeline_checkpoint
                WHERE device_id = \(id) AND newest_at >= \(from.ms) AND newest_at < \(resumePointsBefore.ms)
                """, logger: logger)
            try await Self.insert(connection, device: id, closed: closed, resumePoints: resumePoints, logger: logger)
            try await Self.consume(consuming, connection, device: id, logger: logger)
        }
    }

    public func timelinePending(device: String) async throws -> TimelinePending? {
        let found = try await rows(
            """
            SELECT from_at, until_at, version FROM timeline_pending
            WHERE device_id = (SELECT id FROM device WHERE name = \(device))
            """)
        guard let row = found.first else { return nil }
        let (from, until, version) = try row.decode((Int64, Int64?, Int64).self)
        return TimelinePending(
            from: Instant(milliseconds: from), until: until.map(Instant.init(milliseconds:)), version: version)
    }

    public func timelineResumePoint(device: String, before: Instant) async throws -> TimelineCheckpoint? {
        let found = try await rows(
            """
            SELECT newest_at, builder FROM timeline_checkpoint
            WHERE device_id = (SELECT id FROM device WHERE name = \(device)) AND newest_at < \(before.ms)
            ORDER BY newest_at DESC LIMIT 1
            """)
        guard let row = found.first else { return nil }
        let (newest, builder) = try row.decode((Int64, String).self)
        return TimelineCheckpoint(newest: Instant(milliseconds: newest), builder: builder)
    }

    public func markTimelinePending(device: String, from: Instant, until: Instant) async throws {
        _ = try await rows(
            """
            INSERT INTO timeline_pending (device_id, from_at, until_at)
            SELECT id, \(from.ms), \(until.ms) FROM device WHERE name = \(device)
            ON CONFLICT (device_id) DO UPDATE SET from_at = LEAST(timeline_pending.from_at, EXCLUDED.from_at),
                until_at = \(unescaped: Self.untilSQL), version = timeline_pending.version + 1
            """)
    }

    /// `until_at` grows to the newest marked sample and stays NULL once unknown (a mark from before
    /// the column): PostgreSQL's `GREATEST` would skip the NULL.
    static let untilSQL =
        "CASE WHEN timeline_pending.until_at IS NULL THEN NULL ELSE GREATEST(timeline_pending.until_at, EXCLUDED.until_at) END"

    /// Version 11, as SQLite's `v14-timeline-pending`: each checkpoint's newest sample time (the
    /// device's newest sample for those saved before), the stretches to redo, and the resume
    /// points; a device that has had an import is redone from its first sample once.
    static let timelinePendingMigration = Migration(
        version: 11, name: "v11-timeline-pending",
        statements: [
            "ALTER TABLE timeline_state ADD COLUMN newest_at BIGINT",
            """
            UPDATE timeline_state SET newest_at = (SELECT max(t) FROM sample s WHERE s.device_id = timeline_state.device_id)
            """,
            """
            CREATE TABLE timeline_pending (
                device_id BIGINT PRIMARY KEY REFERENCES device(id),
                from_at BIGINT NOT NULL,
                version BIGINT NOT NULL DEFAULT 1
            )
            """,
            """
            CREATE TABLE timeline_checkpoint (
                device_id BIGINT NOT NULL REFERENCES device(id),
                newest_at BIGINT NOT NULL,
                builder TEXT NOT NULL,
                PRIMARY KEY (device_id, newest_at)
            )
            """,
            """
            INSERT INTO timeline_pending (device_id, from_at)
            SELECT id, first FROM (
                SELECT d.id, (SELECT min(t) FROM sample s WHERE s.device_id = d.id) AS first FROM device d
                WHERE EXISTS (SELECT 1 FROM import_job j WHERE j.device_id = d.id)) AS imported
            WHERE first IS NOT NULL
            """,
        ])

    public func timelineEntries(device: String, from: Instant, to: Instant) async throws -> [TimelineEntry] {
        let found = try await rows(
            """
            SELECT kind, start_at, end_at, latitude, longitude, end_latitude, end_longitude, radius, distance,
                sample_count, inferred, mode
            FROM timeline_entry
            WHERE device_id = (SELECT id FROM device WHERE name = \(device)) AND end_at >= \(from.ms)
                AND start_at < \(to.ms)
            ORDER BY start_at, end_at
            """)
        return try found.compactMap { row in
            let (
                kind, start, end, latitude, longitude, endLatitude, endLongitude, radius, distance, count, inferred,
                mode
            ) =
                try row.decode(
                    (String, Int64, Int64, Double?, Double?, Double?, Double?, Double?, Double?, Int64?, Bool?, String?)
                        .self)
            return TimelineRow(
                kind: kind, start: start, end: end, latitude: latitude, longitude: longitude,
                endLatitude: endLatitude, endLongitude: endLongitude, radius: radius, distance: distance,
                sampleCount: count, inferred: inferred, mode: mode
            ).entry
        }
    }
}
