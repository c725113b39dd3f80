public import LocationLog

/// A validated gap interval from a version-2 native batch, with the id the phone minted for it:
/// the id makes storing it idempotent (a re-sent batch stores it once).
public struct IngestGap: Hashable, Sendable {
    public var id: String
    public var interval: GapInterval

    public init(id: String, interval: GapInterval) {
        self.id = id
        self.interval = interval
    }
}
