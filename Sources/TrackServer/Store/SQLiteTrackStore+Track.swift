public import BackgroundCore
import GRDB
import LocationLog
import TrackGeometry

extension SQLiteTrackStore {
    // Each read below walks the `sample_device_time (device_id, t)` index, whose entries end in the
    // rowid: (t, id) order comes from the index without a sort, and a page starts where the last
    // one ended instead of skipping over the pages before it.

    public func trackPage(
        device: String, from: Instant, to: Instant, after: TrackPageKey?, limit: Int, content: TrackPage.Content
    ) async throws -> TrackPage {
        let lower = max(from.milliseconds, after?.time ?? from.milliseconds)
        // Before the first page no row is excluded: (lower, -1) is below every (t, id) at `lower`.
        let afterRow = after?.row ?? -1
        let size = max(0, limit)
        return try await writer.read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(content.columnList), id FROM sample
                    WHERE device_id = (SELECT id FROM device WHERE name = ?) AND t >= ? AND t < ?
                        AND (t > ? OR id > ?)
                    ORDER BY t, id LIMIT ?
                    """)
            let rows = try Row.fetchCursor(
                statement, arguments: [device, lower, to.milliseconds, lower, afterRow, size])
            var points: [SampleValues] = []
            points.reserveCapacity(min(size, 4096))
            var last: TrackPageKey?
            let idColumn = content.fields.count
            while let row = try rows.next() {
                switch content {
                case .record: points.append(try SampleValues(row: row, at: 0))
                case .positions:
                    points.append(
                        SampleValues(
                            time: Instant(milliseconds: try row.decode(atIndex: 0)),
                            latitude: try row.decode(atIndex: 1),
                            longitude: try row.decode(atIndex: 2)))
                }
                last = TrackPageKey(time: row[0], row: row[idColumn])
            }
            return TrackPage(points: points, next: points.count == size && size > 0 ? last : nil)
        }
    }

    public func sampleCount(device: String, from: Instant, to: Instant, atMost: Int) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM (SELECT 1 FROM sample
                            WHERE device_id = (SELECT id FROM device WHERE name = ?) AND t >= ? AND t < ? LIMIT ?)
                        """),
                arguments: [device, from.milliseconds, to.milliseconds, max(0, atMost)]) ?? 0
        }
    }

    public func segmentCount(device: String, from: Instant, to: Instant, maximumGap: Duration) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM (
                            SELECT t - LAG(t) OVER (ORDER BY t, id) AS step FROM sample
                            WHERE device_id = (SELECT id FROM device WHERE name = ?) AND t >= ? AND t < ?)
                        WHERE step IS NULL OR step > ?
                        """),
                arguments: [device, from.milliseconds, to.milliseconds, maximumGap.wholeMilliseconds]) ?? 0
        }
    }
}
