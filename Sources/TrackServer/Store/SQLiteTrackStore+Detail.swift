public import BackgroundCore
import GRDB
import LocationLog
import TrackGeometry

extension SQLiteTrackStore: TrackDetailStore {
    /// The day number of `t` (floored, as ``DayDetail/day(_:)``), in SQL.
    static let daySQL = "(CASE WHEN t >= 0 THEN t / 86400000 ELSE -((-t - 1) / 86400000) - 1 END)"

    /// `v9-levels-and-flags`: the level and flag columns, the index a map reads (level first, so a
    /// zoom reads only its levels), a partial index of the flagged points, the pending days (every
    /// existing one) and the rules they were worked out with. Adding a column with a default
    /// rewrites no row; the pending days read the table once. A row not yet worked out has level
    /// ``DayDetail/pendingLevel`` (99), outside the level index (`draw_level <= 21`): an insert
    /// does not maintain that index, the day's pass does (ingest cost, BENCHMARKS.md).
    static func detailMigration(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE sample ADD COLUMN drawLevel INTEGER NOT NULL DEFAULT 99;
                ALTER TABLE sample ADD COLUMN flag INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sample ADD COLUMN segmentStart INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX sample_device_level_time ON sample(deviceId, drawLevel, t) WHERE drawLevel <= 21;
                CREATE INDEX sample_device_flagged ON sample(deviceId, t) WHERE flag != 0;
                CREATE TABLE detail_pending (
                    deviceId INTEGER NOT NULL REFERENCES device(id),
                    day INTEGER NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1,
                    PRIMARY KEY (deviceId, day)
                ) WITHOUT ROWID;
                CREATE TABLE detail_rules (id INTEGER PRIMARY KEY CHECK (id = 1), fingerprint TEXT NOT NULL);
                INSERT INTO detail_pending (deviceId, day) SELECT DISTINCT deviceId, \(daySQL) FROM sample;
                """)
    }

    static let markPendingSQL = """
        INSERT INTO detail_pending (device_id, day, version) VALUES (?, ?, 1)
        ON CONFLICT (device_id, day) DO UPDATE SET version = version + 1
        """

    /// In an insert's transaction: the days of the rows it added are pending, and each next day
    /// too (whether its first point starts a new line depends on this day's last one); and the
    /// timeline's stretch from the earliest row, where its state may not cover it
    /// (``markTimelinePending(_:deviceID:rows:)``).
    static func markPending(_ db: Database, deviceID: Int64, rows: NewRows) throws {
        guard let earliest = rows.earliest, let latest = rows.latest else { return }
        let statement = try db.cachedStatement(sql: markPendingSQL)
        for day in DayDetail.pendingDays(after: rows.days) { try statement.execute(arguments: [deviceID, day]) }
        try markTimelinePending(db, deviceID: deviceID, earliest: earliest, latest: latest, imported: rows.imported)
    }

    public func useDetailRules(_ fingerprint: String) async throws -> Bool {
        try await writer.write { db in
            let stored = try String.fetchOne(db, sql: "SELECT fingerprint FROM detail_rules WHERE id = 1")
            guard stored != fingerprint else { return false }
            try db.execute(
                sql: "INSERT OR REPLACE INTO detail_rules (id, fingerprint) VALUES (1, ?)", arguments: [fingerprint])
            if stored != nil {
                try db.execute(
                    sql: """
                        INSERT INTO detail_pending (device_id, day) SELECT DISTINCT device_id, \(Self.daySQL) FROM sample
                        WHERE true ON CONFLICT (device_id, day) DO UPDATE SET version = version + 1
                        """)
            }
            return true
        }
    }

    public func refreshDetail(
        device: String, from: Instant, to: Instant, rules: CleanupRules, maximumGap: Duration, dayLimit: Int
    ) async throws -> Int {
        try await writer.write { db in
            guard
                let deviceID = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [device])
            else { return 0 }
            let days = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT day, version FROM detail_pending WHERE device_id = ? AND day >= ? AND day <= ?
                        ORDER BY day LIMIT ?
                        """),
                arguments: [
                    deviceID, DayDetail.day(from.milliseconds), DayDetail.day(to.milliseconds - 1), max(0, dayLimit),
                ])
            for row in days {
                try Self.redo(
                    db, deviceID: deviceID, day: row[0], version: row[1], rules: rules, maximumGap: maximumGap)
            }
            return days.count
        }
    }

    public func refreshPendingDetail(rules: CleanupRules, maximumGap: Duration, dayLimit: Int) async throws -> Int {
        try await writer.write { db in
            let days = try Row.fetchAll(
                db, sql: "SELECT device_id, day, version FROM detail_pending ORDER BY device_id, day LIMIT ?",
                arguments: [max(0, dayLimit)])
            for row in days {
                try Self.redo(db, deviceID: row[0], day: row[1], version: row[2], rules: rules, maximumGap: maximumGap)
            }
            return days.count
        }
    }

    public func pendingDetailDays() async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM detail_pending") ?? 0 }
    }

    /// Works out one device-day with ``DayDetail`` and writes the rows whose level or flag changed;
    /// the day stops being pending unless an insert marked it again meanwhile.
    private static func redo(
        _ db: Database, deviceID: Int64, day: Int64, version: Int64, rules: CleanupRules, maximumGap: Duration
    ) throws {
        let start = day * DayDetail.dayMilliseconds
        let end = start + DayDetail.dayMilliseconds
        var points: [DetailInput] = []
        var stored: [Int64: (Int, Int, Bool)] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT id, t, lat, lon, acc, draw_level, flag, segment_start FROM sample
                    WHERE device_id = ? AND t >= ? AND t < ? ORDER BY t, id
                    """), arguments: [deviceID, start, end])
        while let row = try rows.next() {
            points.append(input(row))
            stored[row[0]] = (row[5], row[6], row[7])
        }
        let before = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT id, t, lat, lon, acc FROM sample WHERE device_id = ? AND t < ? AND flag = 0
                    ORDER BY t DESC, id DESC LIMIT 1
                    """), arguments: [deviceID, start]
        ).map(input)
        let after = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT id, t, lat, lon, acc FROM sample WHERE device_id = ? AND t >= ? AND flag = 0
                    ORDER BY t, id LIMIT 1
                    """), arguments: [deviceID, end]
        ).map(input)
        let update = try db.cachedStatement(
            sql: "UPDATE sample SET draw_level = ?, flag = ?, segment_start = ? WHERE id = ?")
        for output in DayDetail.compute(points, before: before, after: after, rules: rules, maximumGap: maximumGap)
        where stored[output.row].map({ $0 != (output.level, output.flag.rawValue, output.startsSegment) }) ?? true {
            try update.execute(arguments: [output.level, output.flag.rawValue, output.startsSegment, output.row])
        }
        try db.cachedStatement(sql: "DELETE FROM detail_pending WHERE device_id = ? AND day = ? AND version = ?")
            .execute(arguments: [deviceID, day, version])
    }

    private static func input(_ row: Row) -> DetailInput {
        DetailInput(
            row: row[0],
            point: SampleValues(
                time: Instant(milliseconds: row[1]), latitude: row[2], longitude: row[3], accuracy: row[4]))
    }

    /// `draw_level IN (0, …, zoom)`: one index range per level, each bounded by the time range
    /// (a `<=` on the level would scan every time at those levels).
    static func levelList(_ zoom: Int) -> String {
        (0...max(0, min(zoom, DetailLevels.all))).map(String.init).joined(separator: ",")
    }

    public func drawnCount(device: String, from: Instant, to: Instant, zoom: Int, atMost: Int) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM (SELECT 1 FROM sample
                            WHERE device_id = (SELECT id FROM device WHERE name = ?)
                                AND draw_level IN (\(Self.levelList(zoom))) AND draw_level <= 21 AND t >= ? AND t < ? LIMIT ?)
                        """),
                arguments: [device, from.milliseconds, to.milliseconds, max(0, atMost)]) ?? 0
        }
    }

    public func drawnPage(
        device: String, from: Instant, to: Instant, zoom: Int, after: TrackPageKey?, limit: Int
    ) async throws -> DrawnPage {
        let lower = max(from.milliseconds, after?.time ?? from.milliseconds)
        let afterRow = after?.row ?? -1
        let size = max(0, limit)
        return try await writer.read { db in
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT \(SampleValues.Field.columnList), id, segment_start FROM sample
                        WHERE device_id = (SELECT id FROM device WHERE name = ?)
                            AND draw_level IN (\(Self.levelList(zoom))) AND draw_level <= 21 AND t >= ? AND t < ? AND (t > ? OR id > ?)
                        ORDER BY t, id LIMIT ?
                        """),
                arguments: [device, lower, to.milliseconds, lower, afterRow, size])
            var points: [DrawnPoint] = []
            var last: TrackPageKey?
            while let row = try rows.next() {
                points.append(
                    DrawnPoint(point: try SampleValues(row: row, at: 0), startsSegment: row[Self.afterRecord + 1]))
                last = TrackPageKey(time: row[0], row: row[Self.afterRecord])
            }
            return DrawnPage(points: points, next: points.count == size && size > 0 ? last : nil)
        }
    }

    public func flaggedPoints(device: String, from: Instant, to: Instant, limit: Int) async throws -> [FlaggedPoint] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(SampleValues.Field.columnList), flag FROM sample
                        WHERE device_id = (SELECT id FROM device WHERE name = ?) AND flag != 0 AND t >= ? AND t < ?
                        ORDER BY t, id LIMIT ?
                        """),
                arguments: [device, from.milliseconds, to.milliseconds, max(0, limit)]
            ).map { row in
                FlaggedPoint(
                    point: try SampleValues(row: row, at: 0), flag: SampleFlag(rawValue: row[Self.afterRecord]) ?? .none
                )
            }
        }
    }

    public func flagTally() async throws -> [SampleFlag: Int] {
        try await writer.read { db in
            var tally: [SampleFlag: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT flag, COUNT(*) FROM sample WHERE flag != 0 GROUP BY flag") {
                if let flag = SampleFlag(rawValue: row[0]) { tally[flag] = row[1] }
            }
            return tally
        }
    }
}
