#!/usr/bin/env python3
# The per-row SQL cost of an insert with v9-levels-and-flags against without it (BENCHMARKS.md, "A
# year on one map"), in one run, on SQLite through Python's sqlite3: the statements only (the
# extra columns, the pending-day upsert, and the level index: full, or partial as shipped, where a
# new row's level 99 keeps it out of the index). Not the server's ingest path.
#   python3 scripts/detail-insert-cost.py
import sqlite3, time, random, os, sys
def setup(detail, path):
    partial = detail == 2
    if os.path.exists(path): os.remove(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=NORMAL")
    db.executescript("""
    CREATE TABLE sample (id INTEGER PRIMARY KEY, device_id INTEGER NOT NULL, key TEXT NOT NULL, sample_id TEXT, seq INTEGER,
      t INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, acc REAL, alt REAL, speed REAL, course REAL, battery REAL,
      charging INTEGER, trigger TEXT, state TEXT, source TEXT NOT NULL, received_at INTEGER NOT NULL, UNIQUE (device_id, key));
    CREATE INDEX sample_device_time ON sample(device_id, t);""")
    if detail:
        db.executescript("""
        ALTER TABLE sample ADD COLUMN draw_level INTEGER NOT NULL DEFAULT %s;
        ALTER TABLE sample ADD COLUMN flag INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sample ADD COLUMN segment_start INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX sample_device_level_time ON sample(device_id, draw_level, t)%s;
        CREATE INDEX sample_device_flagged ON sample(device_id, t) WHERE flag != 0;
        CREATE TABLE detail_pending (device_id INTEGER NOT NULL, day INTEGER NOT NULL, version INTEGER NOT NULL DEFAULT 1,
          PRIMARY KEY (device_id, day)) WITHOUT ROWID;""" % (99 if partial else 0, " WHERE draw_level <= 21" if partial else ""))
    return db
def run(detail, batch, n):
    db = setup(detail, os.path.join(os.environ.get("TMPDIR", "/tmp"), "bgtrack-detail-insert-%d.sqlite" % detail))
    start = time.perf_counter(); i = 0
    while i < n:
        db.execute("BEGIN")
        days = set()
        for _ in range(batch):
            t = 1735689600000 + i * 120000
            db.execute("INSERT OR IGNORE INTO sample (device_id, key, t, lat, lon, acc, source, received_at) VALUES (1, ?, ?, ?, ?, 10, 'native', 0)",
                       ("k%d" % i, t, 48.8 + random.random() * 0.01, 2.3 + random.random() * 0.01))
            days.add(t // 86400000); i += 1
        if detail:
            for d in sorted(days | {d + 1 for d in days}):
                db.execute("INSERT INTO detail_pending (device_id, day, version) VALUES (1, ?, 1) ON CONFLICT (device_id, day) DO UPDATE SET version = version + 1", (d,))
        db.execute("COMMIT")
    return (time.perf_counter() - start) / n * 1e6
for batch, n in [(1, 20000), (500, 200000)]:
    for rnd in range(2):
        base = run(0, batch, n); full = run(1, batch, n); partial = run(2, batch, n)
        print("batch %4d: %.1f µs/row without; with levels and flags: full index %.1f (%.2fx), partial index %.1f (%.2fx)"
              % (batch, base, full, full / base, partial, partial / base))
for detail in range(3):
    for suffix in ["", "-wal", "-shm"]:
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "bgtrack-detail-insert-%d.sqlite%s" % (detail, suffix))
        if os.path.exists(path): os.remove(path)
