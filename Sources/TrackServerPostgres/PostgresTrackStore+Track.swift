public import BackgroundCore
import LocationLog
import PostgresNIO
import TrackGeometry
public import TrackServer

extension PostgresTrackStore {
    // Each read walks the `sample_device_time (device_id, t)` index; a page starts where the last one
    // ended, and its rows are decoded as they arrive from PostgresNIO's row sequence.

    public func trackPage(
        device: String, from: Instant, to: Instant, after: TrackPageKey?, limit: Int, content: TrackPage.Content
    ) async throws -> TrackPage {
        let lower = max(from.milliseconds, after?.time ?? from.milliseconds)
        // Before the first page no row is excluded: (lower, -1) is below every (t, id) at `lower`.
        let afterRow = after?.row ?? -1
        let size = Int64(max(0, limit))
        do {
            let rows = try await client.query(
                """
                SELECT \(unescaped: content.columnList), id FROM sample
                WHERE device_id = (SELECT id FROM device WHERE name = \(device)) AND t >= \(lower) AND t < \(to.ms)
                    AND (t > \(lower) OR id > \(afterRow))
                ORDER BY t, id LIMIT \(size)
                """, logger: logger)
            var points: [SampleValues] = []
            points.reserveCapacity(Int(min(size, 4096)))
            var last: TrackPageKey?
            for try await row in rows {
                let columns = row.makeRandomAccess()
                let point =
                    switch content {
                    case .record: try Self.values(from: columns)
                    case .positions:
                        SampleValues(
                            time: Instant(milliseconds: try columns[SampleValues.Field.time.column].decode(Int64.self)),
                            latitude: try columns[SampleValues.Field.latitude.column].decode(Double.self),
                            longitude: try columns[SampleValues.Field.longitude.column].decode(Double.self))
                    }
                points.append(point)
                last = TrackPageKey(time: point.time.milliseconds, row: try columns["id"].decode(Int64.self))
            }
            return TrackPage(points: points, next: points.count == Int(size) && size > 0 ? last : nil)
        } catch {
            throw PostgresStoreError.explaining(error, configuration)
        }
    }

    public func sampleCount(device: String, from: Instant, to: Instant, atMost: Int) async throws -> Int {
        let bound = Int64(max(0, atMost))
        let found = try await rows(
            """
            SELECT COUNT(*) FROM (SELECT 1 FROM sample
                WHERE device_id = (SELECT id FROM device WHERE name = \(device)) AND t >= \(from.ms) AND t < \(to.ms)
                LIMIT \(bound)) AS bounded
            """)
        return Int(try found.first?.decode(Int64.self) ?? 0)
    }

    public func segmentCount(device: String, from: Instant, to: Instant, maximumGap: Duration) async throws -> Int {
        let found = try await rows(
            """
            SELECT COUNT(*) FROM (
                SELECT t - LAG(t) OVER (ORDER BY t, id) AS step FROM sample
                WHERE device_id = (SELECT id FROM device WHERE name = \(device)) AND t >= \(from.ms) AND t < \(to.ms)
            ) AS steps
            WHERE step IS NULL OR step > \(maximumGap.wholeMilliseconds)
            """)
        return Int(try found.first?.decode(Int64.self) ?? 0)
    }
}
