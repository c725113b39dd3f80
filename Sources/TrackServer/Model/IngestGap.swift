public import LocationLog

/// A validated interval from a version-2 native batch (a sampling gap or an upload delay), with
/// the id the phone minted for it: the id makes storing it idempotent (a re-sent batch stores it
/// once).
public struct IngestGap: Hashable, Sendable {
    public var id: String
    public var interval: ReportedInterval

    public init(id: String, interval: ReportedInterval) {
        self.id = id
        self.interval = interval
    }

    public init(id: String, interval: GapInterval) {
        self.init(id: id, interval: .gap(interval))
    }
}
