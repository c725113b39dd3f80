/// Issue 26: the server's columns in SQL's usual snake_case, as the phone's store has them
/// (`device_id`, `received_at`), on both stores: SQLite migration `v12-snake-case-columns`,
/// PostgreSQL migration 9. Until then SQLite kept the camelCase names of the first schema
/// (`deviceId`) and PostgreSQL folded them to lowercase (`deviceid`). One list for both stores, so
/// they cannot drift; the earlier migrations still create the old names, and these rename them.
package enum SnakeCaseColumns {
    /// Each table and its camelCase columns as SQLite's migrations v1-v11 created them
    /// (PostgreSQL's are the same names folded to lowercase).
    package static let renamed: [(table: String, columns: [String])] = [
        (
            "device",
            [
                "tokenHash", "createdAt", "revokedAt", "lastSeenAt", "silentAfterMs", "sampleCount", "rejectedCount",
                "owntracksKey", "retentionMs",
            ]
        ),
        ("operator", ["tokenHash", "createdAt", "revokedAt"]),
        ("session", ["tokenHash", "deviceId", "createdAt", "expiresAt", "revokedAt"]),
        ("sample", ["deviceId", "sampleId", "receivedAt", "drawLevel", "segmentStart"]),
        ("event", ["deviceId", "receivedAt"]),
        ("alert_state", ["deviceId", "silentSince"]),
        ("alert_outbox", ["createdAt", "nextAttemptAt", "lastError"]),
        ("rejected_point", ["deviceId", "receivedAt"]),
        ("timeline_entry", ["deviceId", "startAt", "endAt", "endLatitude", "endLongitude", "sampleCount"]),
        ("timeline_state", ["deviceId"]),
        ("gap_interval", ["deviceId", "gapId", "receivedAt"]),
        ("detail_pending", ["deviceId"]),
        (
            "share_link",
            [
                "deviceId", "secretHash", "fromMs", "toMs", "createdBy", "createdAt", "expiresAt", "revokedAt",
                "lastViewedAt",
            ]
        ),
        ("import_job", ["deviceId", "updatedAt"]),
    ]

    /// `deviceId` -> `device_id`.
    package static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The statements of a migration that renames every column (SQLite from 3.25 and PostgreSQL
    /// both rename the column in the indexes, keys and constraints that name it). `lowercased`:
    /// the old names as PostgreSQL folded them.
    package static func statements(lowercased: Bool) -> [String] {
        renamed.flatMap { table, columns in
            columns.map { column in
                let old = lowercased ? column.lowercased() : column
                return "ALTER TABLE \(table) RENAME COLUMN \(old) TO \(snakeCase(column))"
            }
        }
    }
}
