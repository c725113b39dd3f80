public import BackgroundCore
import PostgresNIO
public import TrackServer

/// Share links (``ShareStore``).
extension PostgresTrackStore: ShareStore {
    static let shareQuery = """
        SELECT l.id, d.name, l.from_ms, l.to_ms, l.created_by, l.created_at, l.expires_at, l.revoked_at, l.views,
            l.last_viewed_at
        FROM share_link l JOIN device d ON d.id = l.device_id
        """

    static func share(from row: PostgresRow) throws -> ShareLink {
        let (id, device, from, to, createdBy, createdAt, expiresAt, revokedAt, views, lastViewedAt) =
            try row.decode((Int64, String, Int64?, Int64?, String, Int64, Int64, Int64?, Int64, Int64?).self)
        let kind: ShareKind =
            if let from, let to { .range(from: Instant(milliseconds: from), to: Instant(milliseconds: to)) } else {
                .live
            }
        return ShareLink(
            id: id, device: device, kind: kind, createdBy: createdBy, createdAt: Instant(milliseconds: createdAt),
            expiresAt: Instant(milliseconds: expiresAt), revokedAt: revokedAt.map(Instant.init(milliseconds:)),
            views: Int(views), lastViewedAt: lastViewedAt.map(Instant.init(milliseconds:)))
    }

    public func createShare(_ share: NewShareLink, at now: Instant) async throws -> ShareLink {
        var bounds: (Int64?, Int64?) = (nil, nil)
        if case .range(let from, let to) = share.kind { bounds = (from.ms, to.ms) }
        let (from, to) = bounds
        let id = try await transaction { connection in
            let deviceID = try await Self.deviceID(connection, share.device, logger: logger)
            let inserted = try await connection.query(
                """
                INSERT INTO share_link (device_id, secret_hash, from_ms, to_ms, created_by, created_at, expires_at)
                VALUES (\(deviceID), \(share.secretHash), \(from), \(to), \(share.createdBy), \(now.ms),
                    \(share.expiresAt.ms))
                RETURNING id
                """,
                logger: logger
            ).collect()
            return try inserted.first?.decode(Int64.self) ?? 0
        }
        return ShareLink(
            id: id, device: share.device, kind: share.kind, createdBy: share.createdBy, createdAt: now,
            expiresAt: share.expiresAt, revokedAt: nil, views: 0, lastViewedAt: nil)
    }

    public func shares(device: String?) async throws -> [ShareLink] {
        var binds = PostgresBindings()
        var filter = ""
        if let device {
            binds.append(device)
            filter = " WHERE d.name = $1"
        }
        return try await rows(PostgresQuery(unsafeSQL: Self.shareQuery + filter + " ORDER BY l.id DESC", binds: binds))
            .map(Self.share(from:))
    }

    public func share(secretHash: String) async throws -> ShareLink? {
        var binds = PostgresBindings()
        binds.append(secretHash)
        return try await rows(PostgresQuery(unsafeSQL: Self.shareQuery + " WHERE l.secret_hash = $1", binds: binds))
            .first.map(Self.share(from:))
    }

    public func countShareView(id: Int64, at now: Instant) async throws {
        try await run("UPDATE share_link SET views = views + 1, last_viewed_at = \(now.ms) WHERE id = \(id)")
    }

    public func revokeShare(id: Int64, at now: Instant) async throws -> Bool {
        try await !rows(
            "UPDATE share_link SET revoked_at = \(now.ms) WHERE id = \(id) AND revoked_at IS NULL RETURNING id"
        ).isEmpty
    }
}
