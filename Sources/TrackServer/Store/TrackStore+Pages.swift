public import BackgroundCore
import LocationLog
import TrackGeometry

/// Where a track page ended: the last point's time and its row, so the next page starts after it
/// even when several samples share a time.
public struct TrackPageKey: Hashable, Sendable {
    /// Epoch milliseconds.
    public var time: Int64
    /// The row's id in the store (its insertion order among samples of the same time).
    public var row: Int64

    public init(time: Int64, row: Int64) {
        self.time = time
        self.row = row
    }
}

/// One page of ``SampleStore/trackPage(device:from:to:after:limit:content:)``.
public struct TrackPage: Sendable {
    /// What a page reads of each sample.
    public enum Content: Sendable {
        /// Every field of the record (exports).
        case record
        /// The time and the position, every measurement `nil`: what a polyline draws. The SQL
        /// stores read 3 columns of the record's 10, which is most of a polyline's cost.
        case positions

        /// The record's fields a page reads, in the record's order.
        public var fields: [SampleValues.Field] {
            switch self {
            case .record: Self.recordFields
            case .positions: Self.positionFields
            }
        }

        /// The columns of ``fields``, for a `SELECT` (the stores read `id` after them).
        public var columnList: String {
            switch self {
            case .record: SampleValues.Field.columnList
            case .positions: Self.positionColumns
            }
        }

        private static let recordFields = SampleValues.Field.allCases
        private static let positionFields: [SampleValues.Field] = [.time, .latitude, .longitude]
        private static let positionColumns = positionFields.map(\.column).joined(separator: ", ")
    }

    public var points: [SampleValues]
    /// Where the next page starts; `nil` when this page was the last (it held fewer than asked).
    public var next: TrackPageKey?

    public init(points: [SampleValues], next: TrackPageKey?) {
        self.points = points
        self.next = next
    }
}

extension SampleStore {
    /// Every field of the record: ``trackPage(device:from:to:after:limit:content:)`` with `.record`.
    public func trackPage(
        device: String, from: Instant, to: Instant, after: TrackPageKey?, limit: Int
    ) async throws -> TrackPage {
        try await trackPage(device: device, from: from, to: to, after: after, limit: limit, content: .record)
    }

    /// The default reads the samples and pages them in memory (correct for any store, the memory of
    /// the whole range; the SQL stores read only the page). Rows are numbered by their place in
    /// the range, which is stable while nothing is inserted into it.
    public func trackPage(
        device: String, from: Instant, to: Instant, after: TrackPageKey?, limit: Int, content: TrackPage.Content
    ) async throws -> TrackPage {
        let all = try await samples(device: device, from: from, to: to, limit: nil)
        let start = after.map { Int($0.row) + 1 } ?? 0
        guard limit > 0, start < all.count else { return TrackPage(points: [], next: nil) }
        let end = min(all.count, start + limit)
        let points = all[start..<end].map { content == .record ? $0.values : $0.values.positionOnly }
        let next = points.count == limit ? TrackPageKey(time: all[end - 1].time.milliseconds, row: Int64(end - 1)) : nil
        return TrackPage(points: points, next: next)
    }

    /// The default counts the samples it reads.
    public func sampleCount(device: String, from: Instant, to: Instant, atMost: Int) async throws -> Int {
        try await samples(device: device, from: from, to: to, limit: max(0, atMost)).count
    }

    /// The default cuts the samples it reads.
    public func segmentCount(device: String, from: Instant, to: Instant, maximumGap: Duration) async throws -> Int {
        let times = try await samples(device: device, from: from, to: to, limit: nil).map(\.time)
        return Gaps.segments(of: times, time: { $0 }, maximumGap: maximumGap).count
    }
}
