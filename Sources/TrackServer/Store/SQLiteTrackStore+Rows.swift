import BackgroundCore
import GRDB

extension SQLiteTrackStore {
    static let deviceQuery = """
        SELECT d.name, d.createdAt, d.revokedAt, d.lastSeenAt, d.silentAfterMs,
            (SELECT COUNT(*) FROM sample s WHERE s.deviceId = d.id) AS sampleCount,
            (SELECT a.silentSince FROM alert_state a WHERE a.deviceId = d.id) AS silentSince,
            (SELECT COUNT(*) FROM rejected_point r WHERE r.deviceId = d.id) AS rejectedCount
        FROM device d
        """

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

    static func markSeen(_ db: Database, deviceID: Int64, at milliseconds: Int64) throws {
        try db.cachedStatement(sql: "UPDATE device SET lastSeenAt = ? WHERE id = ?").execute(
            arguments: [milliseconds, deviceID])
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
