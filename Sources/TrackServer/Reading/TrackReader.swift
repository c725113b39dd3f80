import BackgroundCore
import LocationLog
import TrackGeometry

/// Consecutive points of one segment of a track, as ``TrackReader`` hands them out.
struct TrackRun: Sendable {
    /// The segment's index, from 0 (a new one wherever the gap threshold breaks the line).
    var segment: Int
    var points: [SampleValues]
}

/// Reads a device's range from the store a page at a time, cuts it at gaps and, when asked,
/// simplifies it a window at a time: what it holds is one page and one window, whatever the range.
///
/// Simplification runs Douglas–Peucker on windows of at most `window` points of a segment; each
/// window's last point is the next one's first, so every dropped point still lies within the
/// tolerance of the kept segment that spans it. A segment no longer than a window is simplified
/// exactly as ``Simplification/douglasPeucker(_:tolerance:)`` does it whole.
struct TrackReader: Sendable {
    var store: any SampleStore
    var device: String
    var from: Instant
    var to: Instant
    var maximumGap: Duration
    var simplify: Double?
    /// What each point carries: `.positions` for a polyline, which draws nothing else.
    var content = TrackPage.Content.record
    var pageSize = 4096
    var window = 32_768

    /// Calls `body` with the track's runs in order, each run a piece of one segment.
    func read(_ body: (TrackRun) async throws -> Void) async throws {
        var after: TrackPageKey?
        var segment = -1
        var lastTime: Instant?
        var pending: [SampleValues] = []
        let tolerance = simplify.flatMap { $0 > 0 ? $0 : nil }
        repeat {
            try Task.checkCancellation()
            let page = try await store.trackPage(
                device: device, from: from, to: to, after: after, limit: pageSize, content: content)
            for point in page.points {
                if lastTime.map({ point.time - $0 > maximumGap }) ?? true {
                    if !pending.isEmpty {
                        try await body(TrackRun(segment: segment, points: Self.simplified(pending, tolerance)))
                        pending.removeAll(keepingCapacity: true)
                    }
                    segment += 1
                }
                lastTime = point.time
                pending.append(point)
                if let tolerance, pending.count >= window, let last = pending.last {
                    // The window's last point is kept and starts the next window.
                    try await body(
                        TrackRun(segment: segment, points: Array(Self.simplified(pending, tolerance).dropLast())))
                    pending.removeAll(keepingCapacity: true)
                    pending.append(last)
                }
            }
            if tolerance == nil, !pending.isEmpty {
                try await body(TrackRun(segment: segment, points: pending))
                pending.removeAll(keepingCapacity: true)
            }
            after = page.next
        } while after != nil
        if !pending.isEmpty {
            try await body(TrackRun(segment: segment, points: Self.simplified(pending, tolerance)))
        }
    }

    private static func simplified(_ points: [SampleValues], _ tolerance: Double?) -> [SampleValues] {
        guard let tolerance else { return points }
        return Simplification.douglasPeucker(points, tolerance: tolerance)
    }
}
