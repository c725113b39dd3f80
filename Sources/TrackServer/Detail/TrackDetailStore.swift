public import BackgroundCore
import LocationLog
import TrackGeometry

/// A store that keeps a detail level and a clean-up flag per sample (issue 25 items 1 and 5), so
/// a map of any range reads only the points its zoom draws: `level <= zoom` on an index, a few
/// thousand rows for a year instead of every sample. Both stores conform (contract suite
/// `DetailStoreContract`).
///
/// Levels and flags are worked out a device-day at a time by ``DayDetail``: an insert marks its
/// days as pending (one row per device-day, in the insert's transaction), and a read brings the
/// pending days of its range up to date first (``refreshDetail(device:from:to:rules:maximumGap:)``),
/// so what a map draws always matches what is stored. A pending day's points have level
/// ``DayDetail/pendingLevel``, outside the level index: an insert does not maintain it.
public protocol TrackDetailStore: Sendable {
    /// Remembers the rules' fingerprint; when it differs from the one stored, marks every
    /// device-day as pending, so each is redone with the new rules. True when it changed.
    func useDetailRules(_ fingerprint: String) async throws -> Bool
    /// Redoes the pending days of the device with `from <= time < to`, at most `dayLimit` of them.
    /// - Returns: how many days it redid.
    func refreshDetail(
        device: String, from: Instant, to: Instant, rules: CleanupRules, maximumGap: Duration, dayLimit: Int
    ) async throws -> Int
    /// Redoes up to `dayLimit` pending days of any device (the backfill, `bgtrack cleanup`).
    /// - Returns: how many days it redid; 0 when none is pending.
    func refreshPendingDetail(rules: CleanupRules, maximumGap: Duration, dayLimit: Int) async throws -> Int
    /// How many device-days are pending.
    func pendingDetailDays() async throws -> Int
    /// How many unflagged points of the device with `from <= time < to` a map at `zoom` draws,
    /// counting no further than `atMost` (the index alone).
    func drawnCount(device: String, from: Instant, to: Instant, zoom: Int, atMost: Int) async throws -> Int
    /// The next page of the points a map at `zoom` draws (level `<= zoom`, not flagged), in
    /// (time, row) order, as ``TrackStore/trackPage(device:from:to:after:limit:)``.
    func drawnPage(device: String, from: Instant, to: Instant, zoom: Int, after: TrackPageKey?, limit: Int)
        async throws -> DrawnPage
    /// The flagged points of the device with `from <= time < to`, at most `limit`, in time order.
    func flaggedPoints(device: String, from: Instant, to: Instant, limit: Int) async throws -> [FlaggedPoint]
    /// How many points of each flag the store holds (every device), for `bgtrack cleanup`.
    func flagTally() async throws -> [SampleFlag: Int]
}

/// A point a map draws, and whether a gap comes before it.
public struct DrawnPoint: Hashable, Sendable {
    public var point: SampleValues
    /// A new line starts here (the first point after a gap).
    public var startsSegment: Bool

    public init(point: SampleValues, startsSegment: Bool) {
        self.point = point
        self.startsSegment = startsSegment
    }
}

/// One page of ``TrackDetailStore/drawnPage(device:from:to:zoom:after:limit:)``.
public struct DrawnPage: Sendable {
    public var points: [DrawnPoint]
    /// Where the next page starts; `nil` when this page was the last.
    public var next: TrackPageKey?

    public init(points: [DrawnPoint], next: TrackPageKey?) {
        self.points = points
        self.next = next
    }
}

/// A stored point the clean-up rules exclude, with the rule that did.
public struct FlaggedPoint: Hashable, Sendable {
    public var point: SampleValues
    public var flag: SampleFlag

    public init(point: SampleValues, flag: SampleFlag) {
        self.point = point
        self.flag = flag
    }
}

extension FlaggedPoint: Encodable {
    private enum Key: String, CodingKey { case lat, lon, t, acc, rule }

    /// An excluded marker of the range map: `{"lat", "lon", "t", "acc", "rule"}` (`acc` absent
    /// when unknown; the rule's name, e.g. `speed`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(point.latitude, forKey: .lat)
        try container.encode(point.longitude, forKey: .lon)
        try container.encode(point.time.milliseconds, forKey: .t)
        try container.encodeIfPresent(point.accuracy, forKey: .acc)
        try container.encode(flag.name, forKey: .rule)
    }
}

extension DayDetail {
    /// Milliseconds in a detail day (UTC days: the pass does not depend on the operator's zone).
    public static let dayMilliseconds: Int64 = 86_400_000

    /// The day number of an epoch-milliseconds time.
    public static func day(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / dayMilliseconds : -((-milliseconds - 1) / dayMilliseconds) - 1
    }

    /// The days an insert of rows on `days` makes pending, in order: those days and each next one.
    public static func pendingDays(after days: Set<Int64>) -> [Int64] {
        days.union(days.map { $0 + 1 }).sorted()
    }
}
