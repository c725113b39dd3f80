public import BackgroundCore
import GRDB

/// Why iOS stopped location or ended the app, as iOS says it (``StopCause``), put on the gaps it
/// explains (docs/ios-policy.md §Causes). A session diagnostic arrives at once and explains the gap
/// that is open now; MetricKit's exit counts arrive a day later, for kills long sent: those kill
/// gaps are kept (`gap_kill`) until a report covers them, then sent again, same id, with the cause
/// added to their detail (the server takes a detail that extends the stored one:
/// docs/protocol.md §Gaps).
extension LocationStore {
    /// Kill gaps (`terminated-by-system`) as they were recorded, kept after the server has them
    /// until a MetricKit report covers them or they are ``killMemory`` old (migration "v4").
    static let killTable = """
        CREATE TABLE gap_kill (
            id TEXT PRIMARY KEY NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            reason TEXT NOT NULL,
            detail TEXT
        );
        """

    /// How long a kill gap waits for a MetricKit report: the report covers a day and comes "at most
    /// once per day", so two days and some.
    public static let killMemory: Duration = .seconds(3 * 86_400)

    /// What one of iOS 18's session diagnostics says now (`causes`: its true properties, as
    /// ``StopCause``s). Not in use or no service session opens ``GapReason/locationWithheld``
    /// (until the next sample, or a diagnostic without them); the others add their words to the
    /// condition they explain (authorization lowered, Location Services off, Precise Location
    /// off), opening it if the app had not heard of it yet.
    public func noteDiagnostic(_ causes: [StopCause], at now: Instant) throws(StoreError) {
        let makeID = self.makeID
        try write("noting a location session diagnostic") { db in
            let withheld = causes.filter { $0.gapReason == .locationWithheld }
            if let first = withheld.first {
                try GapRows.open(db, GapReason.locationWithheld.rawValue, detail: first.words, at: now)
            } else {
                _ = try GapRows.close(db, GapReason.locationWithheld.rawValue, at: now, makeID: makeID)
            }
            for cause in causes where cause.gapReason != .locationWithheld && StopCause.diagnostics.contains(cause) {
                let reason = cause.gapReason.rawValue
                try GapRows.open(db, reason, detail: nil, at: now)
                let detail = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT detail FROM gap_open WHERE reason = ?"), arguments: [reason])
                guard detail?.contains(cause.words) != true else { continue }
                try db.cachedStatement(sql: "UPDATE gap_open SET detail = ? WHERE reason = ?").execute(arguments: [
                    Self.adding(cause.words, to: detail), reason,
                ])
            }
        }
    }

    /// A MetricKit report's background exit counts: every kill gap in its period gets the cause
    /// (one, or "one of" several: never a guess) added to its detail; one already sent is queued
    /// to be sent again with the same id. Returns how many kill gaps it explained.
    @discardableResult
    public func attributeExits(_ exits: BackgroundExitCounts, at now: Instant) throws(StoreError) -> Int {
        try write("attributing background exits") { db in
            try db.cachedStatement(sql: #"DELETE FROM gap_kill WHERE "end" < ?"#).execute(arguments: [
                (now - Self.killMemory).milliseconds
            ])
            guard let words = exits.words else { return 0 }
            var explained = 0
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: #"SELECT id, start, "end", reason, detail FROM gap_kill WHERE start < ? AND "end" > ?"#),
                arguments: [exits.end.milliseconds, exits.begin.milliseconds])
            for row in rows {
                let id: String = row["id"]
                let detail = Self.adding(words, to: row["detail"])
                try db.cachedStatement(
                    sql: #"INSERT OR REPLACE INTO gap (id, start, "end", reason, detail) VALUES (?, ?, ?, ?, ?)"#
                ).execute(arguments: [id, row["start"] as Int64, row["end"] as Int64, row["reason"] as String, detail])
                try db.cachedStatement(sql: "DELETE FROM gap_kill WHERE id = ?").execute(arguments: [id])
                explained += 1
            }
            // A kill whose gap is still open (no sample since the relaunch) gets it now.
            let open = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT since, detail FROM gap_open WHERE reason = ?"),
                arguments: [GapReason.terminatedBySystem.rawValue])
            if let open, (open["since"] as Int64) < exits.end.milliseconds {
                try db.cachedStatement(sql: "UPDATE gap_open SET detail = ? WHERE reason = ?").execute(arguments: [
                    Self.adding(words, to: open["detail"]), GapReason.terminatedBySystem.rawValue,
                ])
                explained += 1
            }
            return explained
        }
    }

    /// `detail` with `words` after it, within the wire's limit: it still begins with `detail`, so
    /// the server takes it as a late cause.
    static func adding(_ words: String, to detail: String?) -> String {
        String(((detail.map { $0 + "; " } ?? "") + words).prefix(WireGap.maximumDetailLength))
    }
}
