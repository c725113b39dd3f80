public import BackgroundCore
import GRDB
import LocationLog
public import TrackGeometry

extension SQLiteTrackStore: TimelineStore {
    public func timelineCheckpoint(device: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT builder FROM timeline_state
                    WHERE device_id = (SELECT id FROM device WHERE name = ?)
                    """, arguments: [device])
        }
    }

    public func saveTimeline(
        device: String, closed: [TimelineEntry], checkpoint: String, newest: Instant?, replacingFrom: Instant?,
        resumePoints: [TimelineCheckpoint], consuming: TimelinePending?
    ) async throws {
        try await writer.write { db in
            let id = try Self.timelineDeviceID(db, device)
            if let replacingFrom {
                try db.execute(
                    sql: "DELETE FROM timeline_entry WHERE device_id = ? AND start_at >= ?",
                    arguments: [id, replacingFrom.milliseconds])
                try db.execute(
                    sql: "DELETE FROM timeline_checkpoint WHERE device_id = ? AND newest_at >= ?",
                    arguments: [id, replacingFrom.milliseconds])
            }
            try Self.insert(
                db, device: id, closed: closed,
                resumePoints: resumePoints
                    + (newest.map { [TimelineCheckpoint(newest: $0, builder: checkpoint)] } ?? []))
            try db.execute(
                sql: "INSERT OR REPLACE INTO timeline_state (device_id, builder, newest_at) VALUES (?, ?, ?)",
                arguments: [id, checkpoint, newest?.milliseconds])
            try Self.consume(consuming, db, device: id)
        }
    }

    public func timelinePending(device: String) async throws -> TimelinePending? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT from_at, until_at, version FROM timeline_pending
                    WHERE device_id = (SELECT id FROM device WHERE name = ?)
                    """, arguments: [device]
            ).map { row in
                let until: Int64? = row[1]
                return TimelinePending(
                    from: Instant(milliseconds: row[0]), until: until.map(Instant.init(milliseconds:)), version: row[2])
            }
        }
    }

    public func timelineResumePoint(device: String, before: Instant) async throws -> TimelineCheckpoint? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT newest_at, builder FROM timeline_checkpoint
                    WHERE device_id = (SELECT id FROM device WHERE name = ?) AND newest_at < ?
                    ORDER BY newest_at DESC LIMIT 1
                    """, arguments: [device, before.milliseconds]
            ).map { TimelineCheckpoint(newest: Instant(milliseconds: $0[0]), builder: $0[1]) }
        }
    }

    public func timelineResumePoints(device: String, after: Instant, limit: Int) async throws
        -> [TimelineCheckpoint]
    {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT newest_at, builder FROM timeline_checkpoint
                    WHERE device_id = (SELECT id FROM device WHERE name = ?) AND newest_at > ?
                    ORDER BY newest_at LIMIT ?
                    """, arguments: [device, after.milliseconds, limit]
            ).map { TimelineCheckpoint(newest: Instant(milliseconds: $0[0]), builder: $0[1]) }
        }
    }

    public func saveTimelineStretch(
        device: String, closed: [TimelineEntry], from: Instant, entriesBefore: Instant, resumePointsBefore: Instant,
        resumePoints: [TimelineCheckpoint], consuming: TimelinePending?
    ) async throws {
        try await writer.write { db in
            let id = try Self.timelineDeviceID(db, device)
            try db.execute(
                sql: "DELETE FROM timeline_entry WHERE device_id = ? AND start_at >= ? AND start_at < ?",
                arguments: [id, from.milliseconds, entriesBefore.milliseconds])
            try db.execute(
                sql: "DELETE FROM timeline_checkpoint WHERE device_id = ? AND newest_at >= ? AND newest_at < ?",
                arguments: [id, from.milliseconds, resumePointsBefore.milliseconds])
            try Self.insert(db, device: id, closed: closed, resumePoints: resumePoints)
            try Self.consume(consuming, db, device: id)
        }
    }

    /// The registered device's id, revoked or not; throws ``TrackStoreError/unknownDevice(_:)``.
    private static func timelineDeviceID(_ db: Database, _ device: String) throws -> Int64 {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [device]) else {
            throw TrackStoreError.unknownDevice(device)
        }
        return id
    }

    /// Clears the pending stretch a rebuild read, unless an insert has marked it since.
    private static func consume(_ consuming: TimelinePending?, _ db: Database, device id: Int64) throws {
        guard let consuming else { return }
        try db.execute(
            sql: "DELETE FROM timeline_pending WHERE device_id = ? AND version = ?", arguments: [id, consuming.version])
    }

    /// Stores entries and resume points (replacing any at the same key).
    private static func insert(
        _ db: Database, device id: Int64, closed: [TimelineEntry], resumePoints: [TimelineCheckpoint]
    ) throws {
        let resume = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO timeline_checkpoint (device_id, newest_at, builder) VALUES (?, ?, ?)")
        for point in resumePoints { try resume.execute(arguments: [id, point.newest.milliseconds, point.builder]) }
        let insert = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO timeline_entry (device_id, kind, start_at, end_at, latitude, longitude,
                    end_latitude, end_longitude, radius, distance, sample_count, inferred, mode)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for entry in closed {
            let row = TimelineRow(entry)
            try insert.execute(arguments: [
                id, row.kind, row.start, row.end, row.latitude, row.longitude, row.endLatitude,
                row.endLongitude, row.radius, row.distance, row.sampleCount, row.inferred, row.mode,
            ])
        }
    }

    public func markTimelinePending(device: String, from: Instant, until: Instant) async throws {
        try await writer.write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [device])
            else { return }
            try db.cachedStatement(sql: Self.markImportedSQL).execute(arguments: [
                id, from.milliseconds, until.milliseconds,
            ])
        }
    }

    /// `v14-timeline-pending`: the newest sample time of each checkpoint (the ones saved before are
    /// given their device's newest sample, which is at least as new), the stretches to redo, and
    /// the resume points a rebuild starts from (none yet: the first rebuild of a device starts
    /// from its first sample); a device that has had an import is redone from its first sample
    /// once (history imported before this never reached its timeline, issue 38 item 1).
    static let timelinePendingMigration = """
        ALTER TABLE timeline_state ADD COLUMN newest_at INTEGER;
        UPDATE timeline_state SET newest_at = (SELECT max(t) FROM sample s WHERE s.device_id = timeline_state.device_id);
        CREATE TABLE timeline_pending (
            device_id INTEGER PRIMARY KEY REFERENCES device(id),
            from_at INTEGER NOT NULL,
            version INTEGER NOT NULL DEFAULT 1
        );
        CREATE TABLE timeline_checkpoint (
            device_id INTEGER NOT NULL REFERENCES device(id),
            newest_at INTEGER NOT NULL,
            builder TEXT NOT NULL,
            PRIMARY KEY (device_id, newest_at)
        ) WITHOUT ROWID;
        INSERT INTO timeline_pending (device_id, from_at)
        SELECT id, first FROM (
            SELECT d.id, (SELECT min(t) FROM sample s WHERE s.device_id = d.id) AS first FROM device d
            WHERE EXISTS (SELECT 1 FROM import_job j WHERE j.device_id = d.id))
        WHERE first IS NOT NULL;
        """

    /// `until_at` grows to the newest marked sample; SQLite's `max` of a NULL (a mark from before
    /// the column) stays NULL: unknown, so the rebuild reads to the end.
    static let markImportedSQL = """
        INSERT INTO timeline_pending (device_id, from_at, until_at) VALUES (?, ?, ?)
        ON CONFLICT (device_id) DO UPDATE SET from_at = min(from_at, excluded.from_at),
            until_at = max(until_at, excluded.until_at), version = version + 1
        """

    /// Only where the checkpoint has taken a sample as new: a row in order matches nothing here.
    static let markLateSQL = """
        INSERT INTO timeline_pending (device_id, from_at, until_at)
        SELECT device_id, ?, ? FROM timeline_state WHERE device_id = ? AND newest_at >= ?
        ON CONFLICT (device_id) DO UPDATE SET from_at = min(from_at, excluded.from_at),
            until_at = max(until_at, excluded.until_at), version = version + 1
        """

    /// `v16-timeline-pending-until`: where each marked stretch ends (unknown for marks before it).
    static let timelinePendingUntilMigration = "ALTER TABLE timeline_pending ADD COLUMN until_at INTEGER"

    /// In an insert's transaction: the timeline stretch `earliest...latest` is pending when the
    /// rows were imported, or when the device's checkpoint took a sample at least as new.
    static func markTimelinePending(
        _ db: Database, deviceID: Int64, earliest: Int64, latest: Int64, imported: Bool
    ) throws {
        if imported {
            try db.cachedStatement(sql: markImportedSQL).execute(arguments: [deviceID, earliest, latest])
        } else {
            try db.cachedStatement(sql: markLateSQL).execute(arguments: [earliest, latest, deviceID, earliest])
        }
    }
}

extension SQLiteTrackStore {
    public func timelineEntries(device: String, from: Instant, to: Instant) async throws -> [TimelineEntry] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, start_at, end_at, latitude, longitude, end_latitude, end_longitude, radius, distance,
                        sample_count, inferred, mode
                    FROM timeline_entry
                    WHERE device_id = (SELECT id FROM device WHERE name = ?) AND end_at >= ? AND start_at < ?
                    ORDER BY start_at, end_at
                    """, arguments: [device, from.milliseconds, to.milliseconds])
            return rows.compactMap { row in
                TimelineRow(
                    kind: row[0], start: row[1], end: row[2], latitude: row[3], longitude: row[4],
                    endLatitude: row[5], endLongitude: row[6], radius: row[7], distance: row[8],
                    sampleCount: row[9], inferred: row[10], mode: row[11]
                ).entry
            }
        }
    }
}

/// The rows an insert added, for what it marks pending in its transaction: their days (the
/// detail pass) and the earliest time (the timeline).
struct NewRows {
    var days = Set<Int64>()
    var earliest: Int64?
    var latest: Int64?
    /// Rows of an import, which no timeline was handed.
    var imported = false

    mutating func add(_ time: Int64) {
        days.insert(DayDetail.day(time))
        earliest = min(time, earliest ?? time)
        latest = max(time, latest ?? time)
    }

    mutating func merge(_ other: NewRows) {
        days.formUnion(other.days)
        if let time = other.earliest { earliest = min(time, earliest ?? time) }
        if let time = other.latest { latest = max(time, latest ?? time) }
        imported = imported || other.imported
    }
}
