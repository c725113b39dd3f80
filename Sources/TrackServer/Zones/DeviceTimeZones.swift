public import BackgroundCore

/// The zones a device's samples were taken in, as the store keeps them: each time the zone the
/// device reported changed, and the operator's override (`bgtrack device set --time-zone`).
public struct DeviceTimeZones: Hashable, Sendable {
    /// Samples from `since` on (until the next change) were taken in `zone`.
    public struct Change: Hashable, Sendable {
        public var since: Instant
        /// An IANA name, as ``TimeZoneName/zone(_:)`` accepted it.
        public var zone: String

        public init(since: Instant, zone: String) {
            self.since = since
            self.zone = zone
        }
    }

    /// The operator's zone for the device: when set, every sample of the device is read in it.
    public var override: String?
    /// The reported changes, oldest first.
    public var reported: [Change]

    public init(override: String? = nil, reported: [Change] = []) {
        self.override = override
        self.reported = reported.sorted { $0.since < $1.since }
    }

    /// The reported zone in effect at `instant` (the last change at or before it).
    public func reportedZone(at instant: Instant) -> String? {
        reported.last { $0.since <= instant }?.zone
    }
}
