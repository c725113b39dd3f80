public import BackgroundCore
import PostgresNIO
public import TrackServer

/// Quarantined points and non-location events (``IngestLogStore``).
extension PostgresTrackStore: IngestLogStore {
    public func quarantine(
        device: String, source: IngestSource, reason: String, raw: String, at now: Instant
    ) async throws {
        try await transaction { connection in
            let id = try await Self.deviceID(connection, device, logger: logger)
            try await connection.query(
                """
                INSERT INTO rejected_point (device_id, source, reason, raw, received_at)
                VALUES (\(id), \(source.rawValue), \(String(reason.prefix(500))), \(Self.text(raw, max: 4096)), \(now.ms))
                """,
                logger: logger)
            try await connection.query(
                "UPDATE device SET last_seen_at = \(now.ms), rejected_count = rejected_count + 1 WHERE id = \(id)",
                logger: logger)
        }
    }

    /// At most `max` characters, without NUL (PostgreSQL's text cannot hold it; SQLite's can).
    static func text(_ value: String, max: Int) -> String {
        String(value.prefix(max).map { $0 == "\u{0}" ? "\u{FFFD}" : $0 })
    }

    public func rejectedPoints(device: String, limit: Int) async throws -> [RejectedPoint] {
        try await rows(
            """
            SELECT r.source, r.reason, r.raw, r.received_at FROM rejected_point r JOIN device d ON d.id = r.device_id
            WHERE d.name = \(device) ORDER BY r.id DESC LIMIT \(Int64(max(0, limit)))
            """
        ).map { row in
            let (source, reason, raw, receivedAt) = try row.decode((String, String, String, Int64).self)
            return RejectedPoint(source: source, reason: reason, raw: raw, receivedAt: receivedAt)
        }
    }

    public func recordEvent(device: String, type: String, json: String, at now: Instant) async throws {
        try await transaction { connection in
            let id = try await Self.deviceID(connection, device, logger: logger)
            try await connection.query(
                """
                INSERT INTO event (device_id, type, json, received_at)
                VALUES (\(id), \(type), \(Self.text(json, max: .max)), \(now.ms))
                """,
                logger: logger)
            try await connection.query("UPDATE device SET last_seen_at = \(now.ms) WHERE id = \(id)", logger: logger)
        }
    }

    public func eventCount(device: String) async throws -> Int {
        let found = try await rows(
            "SELECT COUNT(*) FROM event e JOIN device d ON d.id = e.device_id WHERE d.name = \(device)")
        return try Int(found.first?.decode(Int64.self) ?? 0)
    }
}
