package import GRDB

extension SQLiteTrackStore {
    /// Named, append-only migrations: never edit one that shipped, add a new one.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-devices-samples-sessions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        tokenHash TEXT NOT NULL UNIQUE,
                        createdAt INTEGER NOT NULL,
                        revokedAt INTEGER,
                        lastSeenAt INTEGER
                    );
                    CREATE TABLE operator (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        tokenHash TEXT NOT NULL UNIQUE,
                        createdAt INTEGER NOT NULL
                    );
                    CREATE TABLE session (
                        tokenHash TEXT PRIMARY KEY,
                        deviceId INTEGER NOT NULL REFERENCES device(id),
                        createdAt INTEGER NOT NULL,
                        expiresAt INTEGER NOT NULL,
                        revokedAt INTEGER
                    );
                    CREATE TABLE sample (
                        id INTEGER PRIMARY KEY,
                        deviceId INTEGER NOT NULL REFERENCES device(id),
                        key TEXT NOT NULL,
                        sampleId TEXT,
                        seq INTEGER,
                        t INTEGER NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        acc REAL,
                        alt REAL,
                        speed REAL,
                        course REAL,
                        battery REAL,
                        charging INTEGER,
                        trigger TEXT,
                        state TEXT,
                        source TEXT NOT NULL,
                        receivedAt INTEGER NOT NULL,
                        UNIQUE (deviceId, key)
                    );
                    CREATE INDEX sample_device_time ON sample(deviceId, t);
                    CREATE TABLE event (
                        id INTEGER PRIMARY KEY,
                        deviceId INTEGER NOT NULL REFERENCES device(id),
                        type TEXT NOT NULL,
                        json TEXT NOT NULL,
                        receivedAt INTEGER NOT NULL
                    );
                    """
            )
        }
        migrator.registerMigration("v2-alerts") { db in
            try db.execute(
                sql: """
                    ALTER TABLE device ADD COLUMN silentAfterMs INTEGER;
                    CREATE TABLE alert_state (
                        deviceId INTEGER PRIMARY KEY REFERENCES device(id),
                        silentSince INTEGER NOT NULL
                    );
                    CREATE TABLE alert_outbox (
                        id INTEGER PRIMARY KEY,
                        target TEXT NOT NULL,
                        json TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        nextAttemptAt INTEGER NOT NULL,
                        lastError TEXT
                    );
                    """
            )
        }
        migrator.registerMigration("v3-operator-revocation") { db in
            try db.execute(sql: "ALTER TABLE operator ADD COLUMN revokedAt INTEGER")
        }
        migrator.registerMigration("v4-rejected-points") { db in
            try db.execute(
                sql: """
                    CREATE TABLE rejected_point (
                        id INTEGER PRIMARY KEY,
                        deviceId INTEGER NOT NULL REFERENCES device(id),
                        source TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        raw TEXT NOT NULL,
                        receivedAt INTEGER NOT NULL
                    );
                    CREATE INDEX rejected_point_device ON rejected_point(deviceId, id);
                    """)
        }
        // /healthz, /metrics, the index page and the alert loop list devices with their counts:
        // kept in the device row, in the transaction that adds the rows, instead of counted from
        // every sample each time (issue 23: 141 ms at 3.9 M samples).
        migrator.registerMigration("v5-device-tallies") { db in
            try db.execute(
                sql: """
                    ALTER TABLE device ADD COLUMN sampleCount INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE device ADD COLUMN rejectedCount INTEGER NOT NULL DEFAULT 0;
                    UPDATE device SET
                        sampleCount = (SELECT COUNT(*) FROM sample s WHERE s.deviceId = device.id),
                        rejectedCount = (SELECT COUNT(*) FROM rejected_point r WHERE r.deviceId = device.id);
                    """)
        }
        // The OwnTracks payload key (`device add|set --owntracks-key`): the 32-byte secretbox key
        // the server decrypts `_type: encrypted` messages with.
        migrator.registerMigration("v6-owntracks-key") { db in
            try db.execute(sql: "ALTER TABLE device ADD COLUMN owntracksKey BLOB")
        }
        // The timeline (issue 24): closed stays, trips and gaps per device, and the detector's
        // state so the server resumes it without re-reading history.
        migrator.registerMigration("v7-timeline") { db in
            try db.execute(
                sql: """
                    CREATE TABLE timeline_entry (
                        deviceId INTEGER NOT NULL REFERENCES device(id),
                        kind TEXT NOT NULL,
                        startAt INTEGER NOT NULL,
                        endAt INTEGER NOT NULL,
                        latitude REAL,
                        longitude REAL,
                        endLatitude REAL,
                        endLongitude REAL,
                        radius REAL,
                        distance REAL,
                        sampleCount INTEGER,
                        inferred INTEGER,
                        mode TEXT,
                        PRIMARY KEY (deviceId, startAt, kind)
                    ) WITHOUT ROWID;
                    CREATE INDEX timeline_entry_end ON timeline_entry(deviceId, endAt);
                    CREATE TABLE timeline_state (
                        deviceId INTEGER PRIMARY KEY REFERENCES device(id),
                        builder TEXT NOT NULL
                    );
                    """)
        }
        // Why the phone took no samples (issue 24 item 3): its gap intervals, by the id it minted.
        migrator.registerMigration("v8-gap-intervals") { db in
            try db.execute(sql: SQLiteTrackStore.gapIntervalTable)
        }
        // Issue 25 items 1 and 5: a detail level and a clean-up flag per sample, worked out a
        // device-day at a time (SQLiteTrackStore+Detail.swift); every existing day starts pending.
        migrator.registerMigration("v9-levels-and-flags", migrate: detailMigration)
        // Share links (`bgtrack share`) and the per-device retention period (issue 25).
        migrator.registerMigration("v10-shares-retention") { db in
            try db.execute(sql: SQLiteTrackStore.sharesRetentionMigration)
        }
        // Imports (`bgtrack import`): one checkpoint per device and file, committed with each batch
        // of rows, so a killed import resumes where it stopped.
        migrator.registerMigration("v11-imports") { db in
            try db.execute(sql: SQLiteTrackStore.importJobTableSQL)
        }
        // Issue 26: snake_case columns, as the phone's store and PostgreSQL (migration 9) have them.
        migrator.registerMigration("v12-snake-case-columns") { db in
            for statement in SnakeCaseColumns.statements(lowercased: false) { try db.execute(sql: statement) }
        }
        // Issue 37 item 2: the zones each device reported, and the operator's zone for it.
        migrator.registerMigration("v13-time-zones") { db in
            try db.execute(sql: SQLiteTrackStore.timeZoneMigration)
        }
        // Issue 38 item 1: each checkpoint's newest sample time, and the stretch of each device's
        // timeline an insert marked to redo (SQLiteTrackStore+Timeline.swift).
        migrator.registerMigration("v14-timeline-pending") { db in
            try db.execute(sql: SQLiteTrackStore.timelinePendingMigration)
        }
        // Issue 38 item 5: an HTTP import's declared digest and the hash of what its checkpoint
        // covers, so a resume skips records only of the same file.
        migrator.registerMigration("v15-import-digest") { db in
            try db.execute(sql: SQLiteTrackStore.importDigestMigration)
        }
        // Issue 38 item 1: where each marked stretch ends, so a backfill's rebuild stops where it
        // meets the saved timeline again instead of re-reading the rest of the history.
        migrator.registerMigration("v16-timeline-pending-until") { db in
            try db.execute(sql: SQLiteTrackStore.timelinePendingUntilMigration)
        }
        // Issue 42 item 1: the record's vertical accuracy (`SampleValues/Field/verticalAccuracy`).
        migrator.registerMigration("v17-vertical-accuracy") { db in
            try db.execute(sql: "ALTER TABLE sample ADD COLUMN vacc REAL")
        }
        return migrator
    }
}
