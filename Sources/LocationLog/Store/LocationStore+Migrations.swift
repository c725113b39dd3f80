import GRDB

extension LocationStore {
    /// Named, append-only migrations. Never edit one that shipped; add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: samples, quarantine, sync state, diagnostics") { db in
            // Pending samples: everything measured and not yet acknowledged by the server.
            try db.execute(
                sql: """
                    CREATE TABLE sample (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        t INTEGER NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        acc REAL, alt REAL, speed REAL, course REAL, battery REAL, charging INTEGER,
                        trigger TEXT NOT NULL,
                        state TEXT NOT NULL
                    );
                    CREATE TABLE quarantine (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq INTEGER NOT NULL,
                        t INTEGER NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        acc REAL, alt REAL, speed REAL, course REAL, battery REAL, charging INTEGER,
                        trigger TEXT NOT NULL,
                        state TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        quarantined_at INTEGER NOT NULL
                    );
                    CREATE TABLE sync_state (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        next_seq INTEGER NOT NULL,
                        last_success INTEGER,
                        consecutive_failures INTEGER NOT NULL DEFAULT 0,
                        retry_at INTEGER,
                        batch_size INTEGER,
                        held_reason TEXT
                    );
                    INSERT INTO sync_state (id, next_seq) VALUES (1, 1);
                    CREATE TABLE diagnostic (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        t INTEGER NOT NULL,
                        level TEXT NOT NULL,
                        message TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: gap intervals") { db in
            try db.execute(sql: LocationStore.gapTables)
        }
        migrator.registerMigration("v3: no-fix evidence") { db in
            // When an open condition was last seen in effect (the latest too-coarse fix), so a
            // condition the app stopped seeing ends there and not at the next sample.
            try db.execute(sql: "ALTER TABLE gap_open ADD COLUMN seen INTEGER")
        }
        migrator.registerMigration("v4: kills awaiting their cause") { db in
            try db.execute(sql: LocationStore.killTable)
        }
        migrator.registerMigration("v5: vertical accuracy") { db in
            // The record's field added after v1 (`SampleValues/Field/verticalAccuracy`).
            try db.execute(sql: "ALTER TABLE sample ADD COLUMN vacc REAL; ALTER TABLE quarantine ADD COLUMN vacc REAL")
        }
        return migrator
    }
}
