import BackgroundCore

/// What makes a stay and a gap; tunable per server.
///
/// Designed for a phone sampling every 2-3 minutes: a gap is several missed samples (never a
/// fixed 180 s, which would cut every such track into single points).
public struct TimelineSettings: Hashable, Sendable {
    /// Samples within this many metres of a stay's centre belong to it.
    public var stayRadius: Double
    /// A place becomes a stay after this long within `stayRadius`.
    public var minimumStay: Duration
    /// Two neighbouring samples further apart than this have a gap between them.
    public var gapThreshold: Duration
    /// Samples less accurate than this (metres) are ignored for stays and distances (cell
    /// positioning is off by a kilometre); they still show the phone was sampling.
    public var worstAccuracy: Double
    /// Whether a gap with the same position at both ends becomes part of a stay (marked
    /// inferred). Off means such a gap stays a gap: `bgtrack serve --no-infer-stays-for-all-clients`
    /// turns it off for clients that cannot say why they were silent (Overland, OwnTracks, OsmAnd,
    /// imports); by default every path infers alike.
    public var infersStaysAcrossGaps: Bool
    /// A silence up to this long after samples at rest, ending away from the place, is taken as
    /// time still there, and the stay lasts until the first sample away (marked inferred): iOS
    /// pauses location updates for a phone at rest, and a logger indoors loses its fix, so the
    /// person is seen again only once they have left. 15 minutes, the gap a stay may contain in
    /// trackintel's stay detection (its `gap_threshold`). Only with `infersStaysAcrossGaps`.
    public var restingSilence: Duration

    public init(
        stayRadius: Double = 100, minimumStay: Duration = .seconds(600), gapThreshold: Duration = .seconds(480),
        worstAccuracy: Double = 200, infersStaysAcrossGaps: Bool = true, restingSilence: Duration = .seconds(900)
    ) {
        self.stayRadius = stayRadius
        self.minimumStay = minimumStay
        self.gapThreshold = gapThreshold
        self.worstAccuracy = worstAccuracy
        self.infersStaysAcrossGaps = infersStaysAcrossGaps
        self.restingSilence = restingSilence
    }

    /// The settings for a phone sampling every `interval`: the gap threshold is four intervals
    /// (one or two missed samples are jitter, four are lost time).
    public static func sampling(every interval: Duration) -> TimelineSettings {
        TimelineSettings(gapThreshold: interval * 4)
    }
}
