public import BackgroundCore

/// A stretch of time with no sample: longer than the gap threshold between two neighbours.
public struct TrackGap: Hashable, Sendable {
    /// The last point before the gap.
    public var before: SampleValues
    /// The first point after it.
    public var after: SampleValues
    public var duration: Duration { after.time - before.time }
}

/// Gap detection: where the track should be drawn broken.
///
/// The map shows a gap wherever two consecutive samples are further apart in time than
/// `maximumGap` (typically 2–3 × the sampling interval: one missed slot is normal jitter,
/// several are lost time).
public enum Gaps {
    /// The gaps between consecutive points (points must be sorted by time).
    public static func find(in points: [SampleValues], maximumGap: Duration) -> [TrackGap] {
        zip(points, points.dropFirst()).compactMap { before, after in
            after.time - before.time > maximumGap ? TrackGap(before: before, after: after) : nil
        }
    }

    /// The track cut into segments at every gap; each segment is drawn as one line.
    public static func segments(of points: [SampleValues], maximumGap: Duration) -> [[SampleValues]] {
        segments(of: points, time: \.time, maximumGap: maximumGap)
    }

    /// Any time-ordered records cut where consecutive ones are more than `maximumGap` apart.
    public static func segments<Record>(
        of records: [Record], time: (Record) -> Instant, maximumGap: Duration
    ) -> [[Record]] {
        var segments: [[Record]] = []
        var current: [Record] = []
        for record in records {
            if let last = current.last, time(record) - time(last) > maximumGap {
                segments.append(current)
                current = []
            }
            current.append(record)
        }
        if !current.isEmpty { segments.append(current) }
        return segments
    }
}
