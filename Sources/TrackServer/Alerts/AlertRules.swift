public import BackgroundCore

/// What an alert says: a device went silent, or came back (the JSON body a webhook receives).
public struct AlertEvent: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Sendable { case silent, back }

    public var kind: Kind
    public var device: String
    /// When the server last heard from the device (epoch ms and ISO-8601).
    public var lastSeen: Int64
    public var lastSeenISO: String
    /// The device's newest sample, if any: `[latitude, longitude]` and its time (epoch ms).
    public var lastPosition: [Double]?
    public var lastPositionTime: Int64?
    /// The silence that counts, in seconds.
    public var thresholdSeconds: Int64
    /// When the server decided (epoch ms).
    public var at: Int64
    /// Why the phone took no samples, when it reported it (issue 24 item 3): for `silent`, the
    /// intervals it reported around its last contact; for `back`, those of the silence, which the
    /// phone sends with its first upload after it. Absent when the phone reported none.
    public var reasons: [String]? = nil

    enum CodingKeys: String, CodingKey {
        case kind, device
        case lastSeen = "last_seen"
        case lastSeenISO = "last_seen_iso"
        case lastPosition = "last_position"
        case lastPositionTime = "last_position_time"
        case thresholdSeconds = "threshold_s"
        case at, reasons
    }
}

/// Which devices cross the silence line at `now`: a pure rule, so every case is tested directly.
public enum AlertRules {
    public struct Transition: Hashable, Sendable {
        public var device: String
        public var kind: AlertEvent.Kind
        /// When the silence began (last seen + threshold) for `.silent`; `nil` for `.back`.
        public var silentSince: Instant?
        public var lastSeen: Instant
        public var threshold: Duration
    }

    /// One `.silent` per device that has been silent past its threshold and was not already
    /// alerted; one `.back` per alerted device heard from since. Revoked devices, and devices
    /// never heard from, get none.
    public static func transitions(
        devices: [DeviceRecord], defaultThreshold: Duration, at now: Instant
    ) -> [Transition] {
        devices.compactMap { device in
            guard device.revokedAt == nil, let seen = device.lastSeenAt else { return nil }
            let threshold = device.silentAfter ?? defaultThreshold
            let silent = now - seen > threshold
            switch (silent, device.silentSince) {
            case (true, nil):
                return Transition(
                    device: device.name, kind: .silent, silentSince: seen + threshold, lastSeen: seen,
                    threshold: threshold)
            case (false, .some):
                return Transition(
                    device: device.name, kind: .back, silentSince: nil, lastSeen: seen, threshold: threshold)
            default:
                return nil
            }
        }
    }
}
