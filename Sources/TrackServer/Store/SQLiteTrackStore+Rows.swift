import BackgroundCore
import GRDB

extension SQLiteTrackStore {
    static let deviceQuery = """
        SELECT d.name, d.createdAt, d.revokedAt, d.lastSeenAt, d.silentAfterMs, d.sampleCount,
            (SELECT a.silentSince FROM alert_state a WHERE a.deviceId = d.id) AS silentSince, d.rejectedCount
        FROM device d
        """

    /// After a request's rows: the device was heard from, and holds `added` samples more (kept in
    /// the same transaction as the rows, so the count is never off).
    static let seenSQL = "UPDATE device SET lastSeenAt = ?, sampleCount = sampleCount + ? WHERE id = ?"

    static let insertSQL = """
        INSERT OR IGNORE INTO sample (deviceId, key, sampleId, seq, t, lat, lon, acc, alt, speed, course,
            battery, charging, trigger, state, source, receivedAt)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    // Every ingest commit runs these: cached statements, compiled once per connection (compiling
    // one costs more than running it, GRDB's authorizer included).

    static func deviceID(_ db: Database, _ name: String) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM device WHERE name = ? AND revokedAt IS NULL"), arguments: [name])
    }

    /// The device was heard from at `milliseconds`, and holds `added` samples more.
    static func markSeen(_ db: Database, deviceID: Int64, at milliseconds: Int64, added: Int = 0) throws {
        try db.cachedStatement(sql: seenSQL).execute(arguments: [milliseconds, added, deviceID])
    }

    static func device(from row: Row) -> DeviceRecord {
        DeviceRecord(
            name: row["name"],
            createdAt: Instant(milliseconds: row["createdAt"]),
            revokedAt: (row["revokedAt"] as Int64?).map(Instant.init(milliseconds:)),
            lastSeenAt: (row["lastSeenAt"] as Int64?).map(Instant.init(milliseconds:)),
            sampleCount: row["sampleCount"],
            silentAfter: (row["silentAfterMs"] as Int64?).map { .milliseconds($0) },
            silentSince: (row["silentSince"] as Int64?).map(Instant.init(milliseconds:)),
            rejectedCount: row["rejectedCount"]
        )
    }

    static func arguments(_ sample: IngestSample, deviceID: Int64, now: Instant) -> StatementArguments {
        [
            deviceID, sample.key, sample.id, sample.seq, sample.time.milliseconds, sample.latitude, sample.longitude,
            sample.accuracy, sample.altitude, sample.speed, sample.course, sample.battery, sample.charging,
            sample.trigger, sample.state, sample.source.rawValue, now.milliseconds,
        ]
    }

    static func sample(from row: Row) -> IngestSample {
        IngestSample(
            key: row["key"],
            id: row["sampleId"],
            seq: row["seq"],
            time: Instant(milliseconds: row["t"]),
            latitude: row["lat"],
            longitude: row["lon"],
            accuracy: row["acc"],
            altitude: row["alt"],
            speed: row["speed"],
            course: row["course"],
            battery: row["battery"],
            charging: row["charging"],
            trigger: row["trigger"],
            state: row["state"],
            source: IngestSource(rawValue: row["source"]) ?? .native
        )
    }
}
