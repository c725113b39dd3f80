public import BackgroundCore
import PostgresNIO
public import TrackServer

/// Devices and operators, their tokens and OwnTracks keys (``DeviceStore``).
extension PostgresTrackStore: DeviceStore {
    public func addDevice(name: String, tokenHash: String, at now: Instant) async throws -> DeviceRecord {
        do {
            try await run("INSERT INTO device (name, token_hash, created_at) VALUES (\(name), \(tokenHash), \(now.ms))")
        } catch let error as PostgresStoreError where error.sqlState == "23505" {
            throw TrackStoreError.duplicateName(name)
        }
        return DeviceRecord(name: name, createdAt: now, revokedAt: nil, lastSeenAt: nil, sampleCount: 0)
    }

    public func addOperator(name: String, tokenHash: String, at now: Instant) async throws {
        do {
            try await run(
                "INSERT INTO operator (name, token_hash, created_at) VALUES (\(name), \(tokenHash), \(now.ms))")
        } catch let error as PostgresStoreError where error.sqlState == "23505" {
            throw TrackStoreError.duplicateName(name)
        }
    }

    public func operators() async throws -> [OperatorRecord] {
        try await rows("SELECT name, created_at, revoked_at FROM operator ORDER BY name").map { row in
            let (name, createdAt, revokedAt) = try row.decode((String, Int64, Int64?).self)
            return OperatorRecord(
                name: name, createdAt: Instant(milliseconds: createdAt),
                revokedAt: revokedAt.map(Instant.init(milliseconds:)))
        }
    }

    public func revokeOperator(named name: String, at now: Instant) async throws -> Bool {
        try await !rows(
            "UPDATE operator SET revoked_at = \(now.ms) WHERE name = \(name) AND revoked_at IS NULL RETURNING id"
        ).isEmpty
    }

    public func devices() async throws -> [DeviceRecord] {
        try await rows(PostgresQuery(unsafeSQL: Self.deviceQuery + " ORDER BY d.name")).map(Self.device(from:))
    }

    public func device(named name: String) async throws -> DeviceRecord? {
        var binds = PostgresBindings()
        binds.append(name)
        return try await rows(PostgresQuery(unsafeSQL: Self.deviceQuery + " WHERE d.name = $1", binds: binds))
            .first.map(Self.device(from:))
    }

    public func revokeDevice(named name: String, at now: Instant) async throws -> Bool {
        try await transaction { connection in
            let changed = try await connection.query(
                "UPDATE device SET revoked_at = \(now.ms) WHERE name = \(name) AND revoked_at IS NULL RETURNING id",
                logger: logger
            ).collect()
            try await connection.query(
                """
                UPDATE session SET revoked_at = \(now.ms)
                WHERE revoked_at IS NULL AND device_id = (SELECT id FROM device WHERE name = \(name))
                """,
                logger: logger)
            // Its share links end with it (issue 41 item 4): a revoked device shares nothing.
            try await connection.query(
                """
                UPDATE share_link SET revoked_at = \(now.ms)
                WHERE revoked_at IS NULL AND device_id = (SELECT id FROM device WHERE name = \(name))
                """,
                logger: logger)
            return !changed.isEmpty
        }
    }

    public func owner(ofTokenHash hash: String, at now: Instant) async throws -> TokenOwner? {
        // One round trip: every authenticated request runs this.
        let found = try await rows(
            """
            SELECT 'd' AS kind, name FROM device WHERE token_hash = \(hash) AND revoked_at IS NULL
            UNION ALL
            SELECT 'o', name FROM operator WHERE token_hash = \(hash) AND revoked_at IS NULL
            UNION ALL
            SELECT 's', d.name FROM session s JOIN device d ON d.id = s.device_id
            WHERE s.token_hash = \(hash) AND s.revoked_at IS NULL AND s.expires_at > \(now.ms) AND d.revoked_at IS NULL
            """)
        var owners: [String: String] = [:]
        for row in found {
            let (kind, name) = try row.decode((String, String).self)
            owners[kind] = owners[kind] ?? name
        }
        if let name = owners["d"] { return .device(name) }
        if let name = owners["o"] { return .operator(name) }
        return owners["s"].map { .session(device: $0, tokenHash: hash) }
    }

    public func setOwnTracksKey(device: String, _ key: OwnTracksKey?) async throws -> Bool {
        let bytes = key.map { ByteBuffer(bytes: $0.bytes) }
        return try await !rows("UPDATE device SET owntracks_key = \(bytes) WHERE name = \(device) RETURNING id").isEmpty
    }

    public func ownTracksKey(device: String) async throws -> OwnTracksKey? {
        let found = try await rows("SELECT owntracks_key FROM device WHERE name = \(device)")
        guard let stored = try found.first?.decode(ByteBuffer?.self) else { return nil }
        return OwnTracksKey(bytes: Array(stored.readableBytesView))
    }
}
