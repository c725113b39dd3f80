public import BackgroundCore
public import LocationLog
import PostgresNIO
public import TrackServer

extension PostgresTrackStore: TimelineStore {
    public func timelineCheckpoint(device: String) async throws -> String? {
        let found = try await rows(
            "SELECT builder FROM timeline_state WHERE deviceid = (SELECT id FROM device WHERE name = \(device))")
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
                    "DELETE FROM timeline_entry WHERE deviceid = \(id) AND startat >= \(replacingFrom.ms)",
                    logger: logger)
            }
            for entry in closed {
                let row = TimelineRow(entry)
                try await connection.query(
                    """
                    INSERT INTO timeline_entry (deviceid, kind, startat, endat, latitude, longitude, endlatitude,
                        endlongitude, radius, distance, samplecount, inferred, mode)
                    VALUES (\(id), \(row.kind), \(row.start), \(row.end), \(row.latitude), \(row.longitude),
                        \(row.endLatitude), \(row.endLongitude), \(row.radius), \(row.distance), \(row.sampleCount),
                        \(row.inferred), \(row.mode))
                    ON CONFLICT (deviceid, startat, kind) DO UPDATE SET endat = EXCLUDED.endat,
                        latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude,
                        endlatitude = EXCLUDED.endlatitude, endlongitude = EXCLUDED.endlongitude,
                        radius = EXCLUDED.radius, distance = EXCLUDED.distance, samplecount = EXCLUDED.samplecount,
                        inferred = EXCLUDED.inferred, mode = EXCLUDED.mode
                    """, logger: logger)
            }
            try await connection.query(
                """
                INSERT INTO timeline_state (deviceid, builder) VALUES (\(id), \(checkpoint))
                ON CONFLICT (deviceid) DO UPDATE SET builder = EXCLUDED.builder
                """, logger: logger)
        }
    }

    public func timelineEntries(device: String, from: Instant, to: Instant) async throws -> [TimelineEntry] {
        let found = try await rows(
            """
            SELECT kind, startat, endat, latitude, longitude, endlatitude, endlongitude, radius, distance,
                samplecount, inferred, mode
            FROM timeline_entry
            WHERE deviceid = (SELECT id FROM device WHERE name = \(device)) AND endat >= \(from.ms)
                AND startat < \(to.ms)
            ORDER BY startat, endat
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
