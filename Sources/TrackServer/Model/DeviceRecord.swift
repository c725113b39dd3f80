public import BackgroundCore

/// A registered device. Its token is stored only as a SHA-256 hash.
public struct DeviceRecord: Hashable, Sendable {
    public var name: String
    public var createdAt: Instant
    public var revokedAt: Instant?
    /// The last time a sample or heartbeat arrived (server clock), `nil` if never.
    public var lastSeenAt: Instant?
    /// How many samples the server holds for this device.
    public var sampleCount: Int
    /// Its own silence threshold for alerts (`device add --silent-after`); `nil` uses the server's.
    public var silentAfter: Duration?
    /// Since when an alert says it is silent; `nil` while it is heard from (or never alerted).
    public var silentSince: Instant?
    /// Points kept aside in the server's quarantine (`GET /v1/devices/{id}/rejected`).
    public var rejectedCount: Int

    public init(
        name: String, createdAt: Instant, revokedAt: Instant?, lastSeenAt: Instant?, sampleCount: Int,
        silentAfter: Duration? = nil, silentSince: Instant? = nil, rejectedCount: Int = 0
    ) {
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.lastSeenAt = lastSeenAt
        self.sampleCount = sampleCount
        self.silentAfter = silentAfter
        self.silentSince = silentSince
        self.rejectedCount = rejectedCount
    }

    /// `revoked`, `offline` or `online` at `now`, as the index page and `bgtrack device list` show it.
    public func status(at now: Instant, offlineAfter threshold: Duration) -> String {
        revokedAt != nil ? "revoked" : isOffline(at: now, threshold: threshold) ? "offline" : "online"
    }

    /// Whether the device counts as offline at `now`: nothing heard for longer than `threshold`.
    public func isOffline(at now: Instant, threshold: Duration) -> Bool {
        guard let lastSeenAt else { return true }
        return now - lastSeenAt > threshold
    }
}

/// A heartbeat session (docs/protocol.md §Sessions).
public struct SessionRecord: Hashable, Sendable {
    public var device: String
    public var expiresAt: Instant
    public var revokedAt: Instant?

    public init(device: String, expiresAt: Instant, revokedAt: Instant?) {
        self.device = device
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }
}

/// Who a bearer token belongs to.
public enum TokenOwner: Hashable, Sendable {
    /// A device's own long-lived token (from `bgtrack device add`).
    case device(String)
    /// A session token (from `POST /v1/sessions`) of a device.
    case session(device: String, tokenHash: String)
    /// An operator: reads every device, writes none.
    case `operator`(String)
}
