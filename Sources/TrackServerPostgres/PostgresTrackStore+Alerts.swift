public import BackgroundCore
import PostgresNIO
public import TrackServer

extension PostgresTrackStore {
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

    public func operators() async throws -> [OperatorRecord] {
        try await rows("SELECT name, created_at, revoked_at FROM operator ORDER BY name").map { row in
            let (name, createdAt, revokedAt) = try row.decode((String, Int64, Int64?).self)
            return OperatorRecord(
                name: name, createdAt: Instant(milliseconds: createdAt),
                revokedAt: revokedAt.map(Instant.init(milliseconds:)))
        }
    }

    public func revokeOperator(named name: String, at now: Instant) async throws -> Bool {
        try await !rows(
            "UPDATE operator SET revoked_at = \(now.ms) WHERE name = \(name) AND revoked_at IS NULL RETURNING id"
        ).isEmpty
    }

    public func setSilentAfter(device: String, _ threshold: Duration?) async throws -> Bool {
        let milliseconds = threshold.map { $0.components.seconds * 1000 }
        return try await !rows(
            "UPDATE device SET silent_after_ms = \(milliseconds) WHERE name = \(device) RETURNING id"
        ).isEmpty
    }

    public func recordAlert(
        device: String, silentSince: Instant?, deliveries: [AlertDelivery], at now: Instant
    ) async throws {
        try await transaction { connection in
            let id = try await Self.deviceID(connection, device, logger: logger)
            if let silentSince {
                try await connection.query(
                    """
                    INSERT INTO alert_state (device_id, silent_since) VALUES (\(id), \(silentSince.ms))
                    ON CONFLICT (device_id) DO UPDATE SET silent_since = EXCLUDED.silent_since
                    """,
                    logger: logger)
            } else {
                try await connection.query("DELETE FROM alert_state WHERE device_id = \(id)", logger: logger)
            }
            for delivery in deliveries {
                try await connection.query(
                    """
                    INSERT INTO alert_outbox (target, json, created_at, next_attempt_at)
                    VALUES (\(delivery.target), \(Self.text(delivery.json, max: .max)), \(now.ms), \(now.ms))
                    """,
                    logger: logger)
            }
        }
    }

    public func dueAlerts(at now: Instant, limit: Int) async throws -> [QueuedAlert] {
        try await rows(
            """
            SELECT id, target, json, attempts FROM alert_outbox WHERE next_attempt_at <= \(now.ms)
            ORDER BY id LIMIT \(Int64(max(0, limit)))
            """
        ).map { row in
            let (id, target, json, attempts) = try row.decode((Int64, String, String, Int64).self)
            return QueuedAlert(
                id: id, delivery: AlertDelivery(target: target, json: json), attempts: Int(attempts))
        }
    }

    public func alertDelivered(id: Int64) async throws {
        try await run("DELETE FROM alert_outbox WHERE id = \(id)")
    }

    public func alertFailed(id: Int64, error: String, retryAt: Instant) async throws {
        try await run(
            """
            UPDATE alert_outbox SET attempts = attempts + 1, next_attempt_at = \(retryAt.ms),
                last_error = \(Self.text(error, max: 500)) WHERE id = \(id)
            """)
    }
}

extension PostgresTrackStore {
    public func setOwnTracksKey(device: String, _ key: OwnTracksKey?) async throws -> Bool {
        let bytes = key.map { ByteBuffer(bytes: $0.bytes) }
        return try await !rows("UPDATE device SET owntracks_key = \(bytes) WHERE name = \(device) RETURNING id").isEmpty
    }

    public func ownTracksKey(device: String) async throws -> OwnTracksKey? {
        let found = try await rows("SELECT owntracks_key FROM device WHERE name = \(device)")
        guard let stored = try found.first?.decode(ByteBuffer?.self) else { return nil }
        return OwnTracksKey(bytes: Array(stored.readableBytesView))
    }
}
