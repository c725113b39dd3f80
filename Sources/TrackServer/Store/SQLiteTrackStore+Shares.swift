public import BackgroundCore
import GRDB

/// Share links (``ShareStore``).
extension SQLiteTrackStore: ShareStore {
    static let shareQuery = """
        SELECT l.id, d.name, l.from_ms, l.to_ms, l.created_by, l.created_at, l.expires_at, l.revoked_at, l.views,
            l.last_viewed_at
        FROM share_link l JOIN device d ON d.id = l.device_id
        """

    static func share(from row: Row) -> ShareLink {
        let from: Int64? = row[2]
        let to: Int64? = row[3]
        let kind: ShareKind =
            if let from, let to { .range(from: Instant(milliseconds: from), to: Instant(milliseconds: to)) } else {
                .live
            }
        return ShareLink(
            id: row[0], device: row[1], kind: kind, createdBy: row[4], createdAt: Instant(milliseconds: row[5]),
            expiresAt: Instant(milliseconds: row[6]), revokedAt: (row[7] as Int64?).map(Instant.init(milliseconds:)),
            views: row[8], lastViewedAt: (row[9] as Int64?).map(Instant.init(milliseconds:)))
    }

    public func createShare(_ share: NewShareLink, at now: Instant) async throws -> ShareLink {
        try await writer.write { db in
            guard let deviceID = try Self.deviceID(db, share.device) else {
                throw TrackStoreError.unknownDevice(share.device)
            }
            var bounds: (Int64?, Int64?) = (nil, nil)
            if case .range(let from, let to) = share.kind { bounds = (from.milliseconds, to.milliseconds) }
            try db.execute(
                sql: """
                    INSERT INTO share_link (device_id, secret_hash, from_ms, to_ms, created_by, created_at, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    deviceID, share.secretHash, bounds.0, bounds.1, share.createdBy, now.milliseconds,
                    share.expiresAt.milliseconds,
                ])
            return ShareLink(
                id: db.lastInsertedRowID, device: share.device, kind: share.kind, createdBy: share.createdBy,
                createdAt: now, expiresAt: share.expiresAt, revokedAt: nil, views: 0, lastViewedAt: nil)
        }
    }

    public func shares(device: String?) async throws -> [ShareLink] {
        try await writer.read { db in
            let filter = device == nil ? "" : " WHERE d.name = ?"
            return try Row.fetchAll(
                db, sql: Self.shareQuery + filter + " ORDER BY l.id DESC",
                arguments: device.map { [$0] as StatementArguments } ?? []
            ).map(Self.share(from:))
        }
    }

    public func share(secretHash: String) async throws -> ShareLink? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: Self.shareQuery + " WHERE l.secret_hash = ?", arguments: [secretHash])
                .map(Self.share(from:))
        }
    }

    public func countShareView(id: Int64, at now: Instant) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE share_link SET views = views + 1, last_viewed_at = ? WHERE id = ?",
                arguments: [now.milliseconds, id])
        }
    }

    public func revokeShare(id: Int64, at now: Instant) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE share_link SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                arguments: [now.milliseconds, id])
            return db.changesCount > 0
        }
    }
}
