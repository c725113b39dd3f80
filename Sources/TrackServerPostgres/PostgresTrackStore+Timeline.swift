public import BackgroundCore
public import LocationLog
import PostgresNIO
public import TrackServer

extension PostgresTrackStore: TimelineStore {
    public func timelineCheckpoint(device: String) async throws -> String? {
        let found = try await rows(
            "SELECT builder FROM timeline_state WHERE device_id = (SELECT id FROM device WHERE name = \(device))")
        return try found.first?.decode(String.self)
    }

    public func saveTimeline(device: String, closed: [TimelineEntry], checkpoint: String, replacingFrom: Instant?)
        async throws
    {
        let logger = logger
        try await transaction { connection in
            let found = try await connection.query(
                "SELECT id FROM device WHERE name = \(device)", logger: logger
            ).collect()
            guard let row = found.first else { throw TrackStoreError.unknownDevice(device) }
            let id = try row.decode(Int64.self)
            if let replacingFrom {
                try await connection.query(
                    "DELETE FROM timeline_entry WHERE device_id = \(id) AND start_at >= \(replacingFrom.ms)",
                    logger: logger)
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
            try await connection.query(
                """
                INSERT INTO timeline_state (device_id, builder) VALUES (\(id), \(checkpoint))
                ON CONFLICT (device_id) DO UPDATE SET builder = EXCLUDED.builder
                """, logger: logger)
        }
    }

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
