public import BackgroundCore
import LocationLog
import Logging
import PostgresNIO
import TrackGeometry
public import TrackServer

extension PostgresTrackStore: TrackDetailStore {
    /// The day number of `t` (floored, as ``DayDetail/day(_:)``), in SQL.
    static let daySQL = "(t / 86400000 - CASE WHEN t < 0 AND t % 86400000 <> 0 THEN 1 ELSE 0 END)"

    /// Version 6, `v6-levels-and-flags`: as SQLite's `v9-levels-and-flags` (the level and flag
    /// columns, the level index, a partial index of the flagged points, the pending days, every
    /// existing one, and the rules). Adding a column with a constant default rewrites no row.
    static let detailMigration = Migration(
        version: 6, name: "v6-levels-and-flags",
        statements: [
            "ALTER TABLE sample ADD COLUMN drawlevel SMALLINT NOT NULL DEFAULT 99",
            "ALTER TABLE sample ADD COLUMN flag SMALLINT NOT NULL DEFAULT 0",
            "ALTER TABLE sample ADD COLUMN segmentstart BOOLEAN NOT NULL DEFAULT false",
            "CREATE INDEX sample_device_level_time ON sample (deviceid, drawlevel, t) WHERE drawlevel <= 21",
            "CREATE INDEX sample_device_flagged ON sample (deviceid, t) WHERE flag <> 0",
            """
            CREATE TABLE detail_pending (
                deviceid BIGINT NOT NULL REFERENCES device(id),
                day BIGINT NOT NULL,
                version BIGINT NOT NULL DEFAULT 1,
                PRIMARY KEY (deviceid, day)
            )
            """,
            "CREATE TABLE detail_rules (id INT PRIMARY KEY CHECK (id = 1), fingerprint TEXT NOT NULL)",
            "INSERT INTO detail_pending (deviceid, day) SELECT DISTINCT deviceid, \(daySQL) FROM sample",
        ])

    /// In an insert's transaction: the days of the rows it added, and each next day, are pending
    /// (days in order so two transactions lock them in one order); and the timeline's stretch from
    /// the earliest of them, for an import always, otherwise where the device's checkpoint took a
    /// sample at least as new (as SQLite's `markTimelinePending`). One statement for both.
    static func markPending(
        _ connection: PostgresConnection, deviceID: Int64, samples: [TrackSample], outcome: InsertOutcome,
        imported: Bool = false, logger: Logger
    ) async throws {
        let accepted = Set(outcome.accepted)
        let times = samples.lazy.filter { accepted.contains($0.key) }.map(\.time.ms)
        guard let earliest = times.min(), let latest = times.max() else { return }
        let ordered = DayDetail.pendingDays(after: Set(times.map(DayDetail.day)))
        let timeline: PostgresQuery =
            imported
            ? """
            WITH timeline AS (
                INSERT INTO timeline_pending (device_id, from_at, until_at) VALUES (\(deviceID), \(earliest), \(latest))
                ON CONFLICT (device_id) DO UPDATE SET from_at = LEAST(timeline_pending.from_at, EXCLUDED.from_at),
                    until_at = \(unescaped: untilSQL), version = timeline_pending.version + 1)
            INSERT INTO detail_pending (device_id, day) SELECT \(deviceID), unnest(\(ordered)::int8[])
            ON CONFLICT (device_id, day) DO UPDATE SET version = detail_pending.version + 1
            """
            : """
            WITH timeline AS (
                INSERT INTO timeline_pending (device_id, from_at, until_at)
                SELECT device_id, \(earliest), \(latest) FROM timeline_state
                WHERE device_id = \(deviceID) AND newest_at >= \(earliest)
                ON CONFLICT (device_id) DO UPDATE SET from_at = LEAST(timeline_pending.from_at, EXCLUDED.from_at),
                    until_at = \(unescaped: untilSQL), version = timeline_pending.version + 1)
            INSERT INTO detail_pending (device_id, day) SELECT \(deviceID), unnest(\(ordered)::int8[])
            ON CONFLICT (device_id, day) DO UPDATE SET version = detail_pending.version + 1
            """
        try await connection.query(timeline, logger: logger)
    }

    public func useDetailRules(_ fingerprint: String) async throws -> Bool {
        try await transaction { connection in
            try await connection.query("LOCK TABLE detail_rules IN EXCLUSIVE MODE", logger: logger)
            let found = try await connection.query(
                "SELECT fingerprint FROM detail_rules WHERE id = 1", logger: logger
            ).collect()
            let stored = try found.first?.decode(String.self)
            guard stored != fingerprint else { return false }
            try await connection.query(
                """
                INSERT INTO detail_rules (id, fingerprint) VALUES (1, \(fingerprint))
                ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint
                """, logger: logger)
            if stored != nil {
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            INSERT INTO detail_pending (device_id, day)
                            SELECT DISTINCT device_id, \(Self.daySQL) FROM sample ORDER BY 1, 2
                            ON CONFLICT (device_id, day) DO UPDATE SET version = detail_pending.version + 1
                            """), logger: logger)
            }
            return true
        }
    }

    public func refreshDetail(
        device: String, from: Instant, to: Instant, rules: CleanupRules, maximumGap: Duration, dayLimit: Int
    ) async throws -> Int {
        let limit = Int64(max(0, min(dayLimit, Int(Int32.max))))
        return try await retryingDeadlocks {
            try await transaction { connection in
                let found = try await connection.query(
                    "SELECT id FROM device WHERE name = \(device)", logger: logger
                ).collect()
                guard let deviceID = try found.first?.decode(Int64.self) else { return 0 }
                let days = try await connection.query(
                    """
                    SELECT device_id, day, version FROM detail_pending
                    WHERE device_id = \(deviceID) AND day >= \(DayDetail.day(from.ms)) AND day <= \(DayDetail.day(to.ms - 1))
                    ORDER BY day LIMIT \(limit)
                    """, logger: logger
                ).collect()
                for row in days {
                    let (deviceID, day, version) = try row.decode((Int64, Int64, Int64).self)
                    try await Self.redo(
                        connection, deviceID: deviceID, day: day, version: version, rules: rules,
                        maximumGap: maximumGap, logger: logger)
                }
                return days.count
            }
        }
    }

    public func refreshPendingDetail(rules: CleanupRules, maximumGap: Duration, dayLimit: Int) async throws -> Int {
        let limit = Int64(max(0, min(dayLimit, Int(Int32.max))))
        return try await retryingDeadlocks {
            try await transaction { connection in
                let days = try await connection.query(
                    "SELECT device_id, day, version FROM detail_pending ORDER BY device_id, day LIMIT \(limit)",
                    logger: logger
                ).collect()
                for row in days {
                    let (deviceID, day, version) = try row.decode((Int64, Int64, Int64).self)
                    try await Self.redo(
                        connection, deviceID: deviceID, day: day, version: version, rules: rules,
                        maximumGap: maximumGap, logger: logger)
                }
                return days.count
            }
        }
    }

    public func pendingDetailDays() async throws -> Int {
        let found = try await rows("SELECT COUNT(*) FROM detail_pending")
        return Int(try found.first?.decode(Int64.self) ?? 0)
    }

    /// One device-day with ``DayDetail``: the changed rows written in one statement (array binds),
    /// then the day is no longer pending unless an insert marked it again meanwhile (its version).
    private static func redo(
        _ connection: PostgresConnection, deviceID: Int64, day: Int64, version: Int64, rules: CleanupRules,
        maximumGap: Duration, logger: Logger
    ) async throws {
        let start = day * DayDetail.dayMilliseconds
        let end = start + DayDetail.dayMilliseconds
        var points: [DetailInput] = []
        var stored: [Int64: (Int, Int, Bool)] = [:]
        let rows = try await connection.query(
            """
            SELECT id, t, lat, lon, acc, draw_level, flag, segment_start FROM sample
            WHERE device_id = \(deviceID) AND t >= \(start) AND t < \(end) ORDER BY t, id
            """, logger: logger)
        for try await row in rows {
            let (id, time, latitude, longitude, accuracy, level, flag, segmentStart) = try row.decode(
                (Int64, Int64, Double, Double, Double?, Int16, Int16, Bool).self)
            points.append(
                DetailInput(
                    row: id,
                    point: SampleValues(
                        time: Instant(milliseconds: time), latitude: latitude, longitude: longitude, accuracy: accuracy)
                ))
            stored[id] = (Int(level), Int(flag), segmentStart)
        }
        func neighbour(_ query: PostgresQuery) async throws -> DetailInput? {
            let found = try await connection.query(query, logger: logger).collect()
            guard let row = found.first else { return nil }
            let (id, time, latitude, longitude, accuracy) = try row.decode((Int64, Int64, Double, Double, Double?).self)
            return DetailInput(
                row: id,
                point: SampleValues(
                    time: Instant(milliseconds: time), latitude: latitude, longitude: longitude, accuracy: accuracy))
        }
        let before = try await neighbour(
            """
            SELECT id, t, lat, lon, acc FROM sample WHERE device_id = \(deviceID) AND t < \(start) AND flag = 0
            ORDER BY t DESC, id DESC LIMIT 1
            """)
        let after = try await neighbour(
            """
            SELECT id, t, lat, lon, acc FROM sample WHERE device_id = \(deviceID) AND t >= \(end) AND flag = 0
            ORDER BY t, id LIMIT 1
            """)
        let changed = DayDetail.compute(points, before: before, after: after, rules: rules, maximumGap: maximumGap)
            .filter { output in
                stored[output.row].map { $0 != (output.level, output.flag.rawValue, output.startsSegment) } ?? true
            }
        if !changed.isEmpty {
            try await connection.query(
                """
                UPDATE sample SET draw_level = u.level, flag = u.flag, segment_start = u.start
                FROM unnest(\(changed.map(\.row))::int8[], \(changed.map { Int16($0.level) })::int2[],
                    \(changed.map { Int16($0.flag.rawValue) })::int2[], \(changed.map(\.startsSegment))::bool[])
                    AS u(id, level, flag, start)
                WHERE sample.id = u.id
                """, logger: logger)
        }
        try await connection.query(
            "DELETE FROM detail_pending WHERE device_id = \(deviceID) AND day = \(day) AND version = \(version)",
            logger: logger)
    }

    /// The levels a map at `zoom` draws: `draw_level = ANY(…)`, one index range per level, each
    /// bounded by the time range.
    static func levels(_ zoom: Int) -> [Int16] {
        (0...max(0, min(zoom, DetailLevels.all))).map(Int16.init)
    }

    public func drawnCount(device: String, from: Instant, to: Instant, zoom: Int, atMost: Int) async throws -> Int {
        let found = try await rows(
            """
            SELECT COUNT(*) FROM (SELECT 1 FROM sample
                WHERE device_id = (SELECT id FROM device WHERE name = \(device))
                    AND draw_level = ANY(\(Self.levels(zoom))::int2[]) AND draw_level <= 21 AND t >= \(from.ms) AND t < \(to.ms)
                LIMIT \(Int64(max(0, atMost)))) AS bounded
            """)
        return Int(try found.first?.decode(Int64.self) ?? 0)
    }

    public func drawnPage(
        device: String, from: Instant, to: Instant, zoom: Int, after: TrackPageKey?, limit: Int
    ) async throws -> DrawnPage {
        let lower = max(from.ms, after?.time ?? from.ms)
        let afterRow = after?.row ?? -1
        let size = Int64(max(0, limit))
        var points: [DrawnPoint] = []
        var last: TrackPageKey?
        for row in try await rows(
            """
            SELECT \(unescaped: SampleValues.Field.columnList), id, segment_start FROM sample
            WHERE device_id = (SELECT id FROM device WHERE name = \(device))
                AND draw_level = ANY(\(Self.levels(zoom))::int2[]) AND draw_level <= 21 AND t >= \(lower) AND t < \(to.ms)
                AND (t > \(lower) OR id > \(afterRow))
            ORDER BY t, id LIMIT \(size)
            """)
        {
            let columns = row.makeRandomAccess()
            let point = try Self.values(from: columns)
            points.append(DrawnPoint(point: point, startsSegment: try columns["segment_start"].decode(Bool.self)))
            last = TrackPageKey(time: point.time.milliseconds, row: try columns["id"].decode(Int64.self))
        }
        return DrawnPage(points: points, next: points.count == Int(size) && size > 0 ? last : nil)
    }

    public func flaggedPoints(device: String, from: Instant, to: Instant, limit: Int) async throws -> [FlaggedPoint] {
        try await rows(
            """
            SELECT \(unescaped: SampleValues.Field.columnList), flag FROM sample
            WHERE device_id = (SELECT id FROM device WHERE name = \(device)) AND flag <> 0
                AND t >= \(from.ms) AND t < \(to.ms)
            ORDER BY t, id LIMIT \(Int64(max(0, limit)))
            """
        ).map { row in
            let columns = row.makeRandomAccess()
            return FlaggedPoint(
                point: try Self.values(from: columns),
                flag: SampleFlag(rawValue: Int(try columns["flag"].decode(Int16.self))) ?? .none)
        }
    }

    public func flagTally() async throws -> [SampleFlag: Int] {
        var tally: [SampleFlag: Int] = [:]
        for row in try await rows("SELECT flag, COUNT(*) FROM sample WHERE flag <> 0 GROUP BY flag") {
            let (flag, count) = try row.decode((Int16, Int64).self)
            if let flag = SampleFlag(rawValue: Int(flag)) { tally[flag] = Int(count) }
        }
        return tally
    }
}
