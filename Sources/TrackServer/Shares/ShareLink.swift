public import BackgroundCore

/// A read-only link to one device's live position or to a time range (`bgtrack share create`).
/// Only the SHA-256 of its secret is stored, as for device tokens.
public struct ShareLink: Hashable, Sendable, Encodable {
    public var id: Int64
    public var device: String
    public var kind: ShareKind
    public var createdBy: String
    public var createdAt: Instant
    public var expiresAt: Instant
    public var revokedAt: Instant?
    /// Pages served through the link.
    public var views: Int
    public var lastViewedAt: Instant?

    public init(
        id: Int64, device: String, kind: ShareKind, createdBy: String, createdAt: Instant, expiresAt: Instant,
        revokedAt: Instant?, views: Int, lastViewedAt: Instant?
    ) {
        self.id = id
        self.device = device
        self.kind = kind
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.views = views
        self.lastViewedAt = lastViewedAt
    }

    /// What the link serves at `now`.
    public func state(at now: Instant) -> ShareState {
        if revokedAt != nil { return .revoked }
        return now < expiresAt ? .active : .expired
    }

    enum CodingKeys: String, CodingKey {
        case id, device, kind, from, to, views
        case createdBy = "created_by"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case revokedAt = "revoked_at"
        case lastViewedAt = "last_viewed_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(device, forKey: .device)
        switch kind {
        case .live: try container.encode("live", forKey: .kind)
        case .range(let from, let to):
            try container.encode("range", forKey: .kind)
            try container.encode(from.milliseconds, forKey: .from)
            try container.encode(to.milliseconds, forKey: .to)
        }
        try container.encode(createdBy, forKey: .createdBy)
        try container.encode(createdAt.milliseconds, forKey: .createdAt)
        try container.encode(expiresAt.milliseconds, forKey: .expiresAt)
        try container.encode(revokedAt?.milliseconds, forKey: .revokedAt)
        try container.encode(views, forKey: .views)
        try container.encode(lastViewedAt?.milliseconds, forKey: .lastViewedAt)
    }
}

/// What a share link shows.
public enum ShareKind: Hashable, Sendable {
    /// The device's newest position, as it moves.
    case live
    /// The track with `from <= time < to`.
    case range(from: Instant, to: Instant)
}

/// Whether a link serves its page.
public enum ShareState: String, Hashable, Sendable {
    case active, expired, revoked
}

/// A link to create: the device, what it shows, until when, and who made it.
public struct NewShareLink: Hashable, Sendable {
    public var device: String
    public var kind: ShareKind
    public var secretHash: String
    public var expiresAt: Instant
    public var createdBy: String

    public init(device: String, kind: ShareKind, secretHash: String, expiresAt: Instant, createdBy: String) {
        self.device = device
        self.kind = kind
        self.secretHash = secretHash
        self.expiresAt = expiresAt
        self.createdBy = createdBy
    }
}
