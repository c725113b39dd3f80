public import BackgroundCore
import PostgresNIO
public import TrackServer

/// Per-device silence thresholds and the alert outbox (``AlertStore``).
extension PostgresTrackStore: AlertStore {
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
