public import BackgroundCore
public import Foundation
import GRDB

/// How the app came to be running again after its process ended (what iOS tells at launch).
public enum GapLaunchCause: Hashable, Sendable {
    /// The user opened it.
    case user
    /// iOS relaunched it in the background, for what (`region exit`, `significant change`,
    /// `visit`, `background task`…).
    case system(String)
}

extension LocationStore {
    /// The phone's gap tables (migration "v2: gap intervals").
    ///
    /// `gap` holds closed intervals of both kinds (a ``GapReason`` or an ``UploadDelayReason`` in
    /// `reason`) until the server acknowledged exactly them; `gap_open` the conditions in effect
    /// now (one row per reason, since when; `seen`, added by "v3: no-fix evidence", when the app
    /// last saw it in effect); `gap_clock` the last sample's
    /// time and whether the process was told it would terminate, so the next launch can say why
    /// nothing was sampled in between.
    static let gapTables = """
        CREATE TABLE gap (
            id TEXT PRIMARY KEY NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            reason TEXT NOT NULL,
            detail TEXT
        );
        CREATE TABLE gap_open (
            reason TEXT PRIMARY KEY NOT NULL,
            since INTEGER NOT NULL,
            detail TEXT
        );
        CREATE TABLE gap_clock (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            last_sample_at INTEGER,
            terminating_at INTEGER
        );
        INSERT INTO gap_clock (id) VALUES (1);
        """

    /// A same-process silence longer than this is recorded as ``GapReason/suspended``.
    public static let suspendedGapThreshold: Duration = .seconds(10 * 60)

    /// A ``GapReason/noFix`` shorter than this is not recorded: a retry (30 s later) or the next
    /// fix filled the slot, as after the coarse first fix of a request above ground.
    public static let noFixMinimum: Duration = .seconds(60)

    /// Opens a gap condition (Low Power Mode on, storage full…) from `now`; one already open keeps
    /// its start. It is closed, and becomes an interval to upload, by ``closeGap(_:at:)``.
    public func openGap(_ reason: GapReason, detail: String? = nil, at now: Instant) throws(StoreError) {
        try write("opening a gap condition") { db in try GapRows.open(db, reason.rawValue, detail: detail, at: now) }
    }

    /// Closes a condition opened by ``openGap(_:detail:at:)``: the interval is stored, pending
    /// upload. Closing a condition that is not open does nothing.
    @discardableResult
    public func closeGap(_ reason: GapReason, at now: Instant) throws(StoreError) -> GapInterval? {
        let makeID = self.makeID
        return try write("closing a gap condition") { db in
            try GapRows.close(db, reason.rawValue, at: now, makeID: makeID)?.gap
        }
    }

    /// A fix the sampling machine refused, the one rule every shell applies: one too coarse to
    /// record (no GPS underground or deep indoors; not an approximate fix with Precise Location
    /// off, which is ``GapReason/preciseOff``) means no fix to be had (``noteNoFix(detail:at:)``);
    /// any other refusal says nothing about the sky.
    public func noteRejectedFix(_ fix: LocationFix, _ rejection: FixRejection, at now: Instant) throws(StoreError) {
        guard case .tooInaccurate(let accuracy, let limit) = rejection, !fix.isApproximate else { return }
        try noteNoFix(
            detail: "fixes too coarse: \(Int(accuracy.rounded())) m, the limit is \(Int(limit.rounded())) m", at: now)
    }

    /// The app asked for a fix and got none it could record (too coarse, or Core Location said
    /// the location is unknown): ``GapReason/noFix`` from now, or still, until the next sample.
    /// `detail` is kept from the first such fix; each call marks the condition as still seen, so
    /// an app that stops trying (suspended) ends the no-fix gap at its last try.
    public func noteNoFix(detail: String?, at now: Instant) throws(StoreError) {
        try write("noting a fix too coarse to record") { db in
            try GapRows.open(db, GapReason.noFix.rawValue, detail: detail, at: now)
            try db.cachedStatement(sql: "UPDATE gap_open SET seen = max(coalesce(seen, since), ?) WHERE reason = ?")
                .execute(arguments: [now.milliseconds, GapReason.noFix.rawValue])
        }
    }

    /// Sets the conditions among `managed` to exactly `active` (with their details): opens the
    /// new ones, closes the others. The shell calls it with what it last heard from the system.
    public func setGapConditions(
        _ active: [GapReason: String?], among managed: Set<GapReason>, at now: Instant
    ) throws(StoreError) {
        let makeID = self.makeID
        try write("updating gap conditions") { db in
            for reason in managed.sorted(by: { $0.rawValue < $1.rawValue }) {
                if let detail = active[reason] {
                    try GapRows.open(db, reason.rawValue, detail: detail, at: now)
                } else {
                    _ = try GapRows.close(db, reason.rawValue, at: now, makeID: makeID)
                }
            }
        }
    }

    /// Stores a closed interval the shell measured itself (e.g. storage full, kept in memory while
    /// nothing could be written).
    @discardableResult
    public func recordGap(_ interval: GapInterval) throws(StoreError) -> UUID {
        try record(.gap(interval))
    }

    /// Stores a closed interval of either kind.
    @discardableResult
    public func record(_ interval: ReportedInterval) throws(StoreError) -> UUID {
        let id = makeID()
        try write("recording a gap") { db in try GapRows.insert(db, id: id, interval) }
        return id
    }

    /// Tracking stopped while the shell kept a storage-full condition (``StorageFullWatch``): its
    /// interval until `now` is stored and `storageFull` cleared. A store that still cannot write
    /// throws, and `storageFull` keeps the condition; none open does nothing.
    public func recordStorageFull(_ storageFull: inout StorageFullWatch, until now: Instant) throws(StoreError) {
        guard let full = storageFull.interval(until: now) else { return }
        try recordGap(full)
        storageFull = StorageFullWatch()
    }

    /// The process was told it will terminate (`applicationWillTerminate`): iOS calls it when the
    /// user force-quits a running app, never for a kill of a suspended one.
    public func noteWillTerminate(at now: Instant) throws(StoreError) {
        try write("noting the app's termination") { db in
            try db.cachedStatement(sql: "UPDATE gap_clock SET terminating_at = ? WHERE id = 1").execute(arguments: [
                now.milliseconds
            ])
        }
    }

    /// Tracking was turned off on purpose (`detail` says by whom: the user, or the server ending
    /// the session): the silence until the next sample is ``GapReason/trackingStopped``, not
    /// suspension or a kill, whatever launches happen meanwhile.
    public func noteTrackingStopped(at now: Instant, detail: String? = nil) throws(StoreError) {
        try write("noting that tracking stopped") { db in
            try db.cachedStatement(
                sql: "UPDATE gap_clock SET last_sample_at = NULL, terminating_at = NULL WHERE id = 1"
            ).execute()
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO gap_open (reason, since, detail) VALUES (?, ?, ?)")
                .execute(arguments: [
                    GapReason.trackingStopped.rawValue, now.milliseconds, detail.map { String($0.prefix(200)) },
                ])
        }
    }

    /// A new process started. If the phone had sampled before, the silence since its last sample
    /// is explained until the next sample: force-quit when the previous process was told it
    /// would terminate and the user reopened the app, else ended by the system; iOS never says
    /// which for a suspended app, and the detail says so.
    public func noteLaunch(_ cause: GapLaunchCause, at now: Instant) throws(StoreError) {
        try write("noting a launch") { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT last_sample_at, terminating_at FROM gap_clock"))
            else {
                return
            }
            try db.cachedStatement(sql: "UPDATE gap_clock SET terminating_at = NULL WHERE id = 1").execute()
            guard let last: Int64 = row["last_sample_at"] else { return }
            let told = (row["terminating_at"] as Int64?) != nil
            let (reason, detail) = GapRows.explanation(cause, toldToTerminate: told)
            try GapRows.openRelaunch(
                db, reason, detail: detail, since: Instant(milliseconds: min(last, now.milliseconds)))
        }
    }

    /// Closed intervals of both kinds waiting for the server, oldest first.
    public func pendingIntervals(limit: Int) throws(StoreError) -> [(id: UUID, interval: ReportedInterval)] {
        try read("reading pending gaps") { db in
            try Row.fetchAll(
                db, sql: #"SELECT id, start, "end", reason, detail FROM gap ORDER BY start, id LIMIT ?"#,
                arguments: [max(0, limit)]
            ).compactMap(GapRows.pending)
        }
    }

    /// Closed sampling gaps waiting for the server, oldest first.
    public func pendingGaps(limit: Int) throws(StoreError) -> [(id: UUID, interval: GapInterval)] {
        try pendingIntervals(limit: limit).compactMap { pending in pending.interval.gap.map { (pending.id, $0) } }
    }

    /// Closed upload delays waiting for the server, oldest first.
    public func pendingDelays(limit: Int) throws(StoreError) -> [(id: UUID, delay: UploadDelay)] {
        try pendingIntervals(limit: limit).compactMap { pending in pending.interval.delay.map { (pending.id, $0) } }
    }

    /// Upload delays in effect now, by reason.
    public func openDelays() throws(StoreError) -> [UploadDelayReason: (since: Instant, detail: String?)] {
        try openConditions(UploadDelayReason.self)
    }

    /// Conditions in effect now, by reason.
    public func openGaps() throws(StoreError) -> [GapReason: (since: Instant, detail: String?)] {
        try openConditions(GapReason.self)
    }

    /// The open rows whose reason is a `Reason`.
    private func openConditions<Reason: RawRepresentable & Hashable & Sendable>(_: Reason.Type)
        throws(StoreError) -> [Reason: (since: Instant, detail: String?)] where Reason.RawValue == String
    {
        try read("reading open gap conditions") { db in
            var open: [Reason: (since: Instant, detail: String?)] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT reason, since, detail FROM gap_open")) {
                guard let raw: String = row["reason"], let reason = Reason(rawValue: raw) else { continue }
                open[reason] = (Instant(milliseconds: row["since"]), row["detail"])
            }
            return open
        }
    }

    /// Deletes exactly the intervals the server acknowledged (stored, duplicate or refused).
    @discardableResult
    public func acknowledgeGaps(_ ids: Set<UUID>) throws(StoreError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try write("applying a gap acknowledgement") { db in
            var deleted = 0
            for id in ids {
                try db.cachedStatement(sql: "DELETE FROM gap WHERE id = ?").execute(arguments: [id.wireString])
                deleted += db.changesCount
            }
            return deleted
        }
    }
}

/// The SQL behind the gap methods, shared with `append` (which closes a relaunch's gap).
enum GapRows {
    static let processReasons: [GapReason] = [.forceQuit, .terminatedBySystem, .trackingStopped, .locationWithheld]

    static func insert(_ db: Database, id: UUID, _ interval: GapInterval) throws {
        try insert(db, id: id, .gap(interval))
    }

    static func insert(_ db: Database, id: UUID, _ interval: ReportedInterval) throws {
        let arguments: StatementArguments = [
            id.wireString, interval.start.milliseconds, interval.end.milliseconds, interval.reason,
            interval.detail.map { String($0.prefix(WireGap.maximumDetailLength)) },
        ]
        try db.cachedStatement(sql: #"INSERT INTO gap (id, start, "end", reason, detail) VALUES (?, ?, ?, ?, ?)"#)
            .execute(arguments: arguments)
        // A kill is remembered after it is sent, until MetricKit's report says why (`attributeExits`).
        if interval.reason == GapReason.terminatedBySystem.rawValue {
            try db.cachedStatement(
                sql: #"INSERT OR REPLACE INTO gap_kill (id, start, "end", reason, detail) VALUES (?, ?, ?, ?, ?)"#
            ).execute(arguments: arguments)
        }
    }

    /// Opens a condition of either kind (raw reason) from `now`; one already open keeps its start.
    static func open(_ db: Database, _ reason: String, detail: String?, at now: Instant) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO gap_open (reason, since, detail) VALUES (?, ?, ?)").execute(
            arguments: [reason, now.milliseconds, detail.map { String($0.prefix(WireGap.maximumDetailLength)) }])
    }

    /// Closes an open condition of either kind at `now` (or, when it was last seen more than the
    /// suspension threshold before `now`, where it was last seen) and stores its interval.
    static func close(
        _ db: Database, _ reason: String, at now: Instant, shorterThan minimum: Duration = .zero, makeID: () -> UUID
    ) throws -> ReportedInterval? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT since, detail, seen FROM gap_open WHERE reason = ?"),
                arguments: [reason])
        else { return nil }
        try db.cachedStatement(sql: "DELETE FROM gap_open WHERE reason = ?").execute(arguments: [reason])
        let since = Instant(milliseconds: row["since"])
        var end = now
        if let seen = (row["seen"] as Int64?).map(Instant.init(milliseconds:)),
            now.milliseconds - seen.milliseconds > LocationStore.suspendedGapThreshold.milliseconds
        {
            end = seen
        }
        guard
            let interval = ReportedInterval(
                start: min(since, end), end: end, reason: reason, detail: row["detail"])
        else { return nil }
        // Too short to be a gap in sampling: closed, not recorded.
        if minimum > .zero, end.milliseconds - interval.start.milliseconds < minimum.milliseconds { return interval }
        try insert(db, id: makeID(), interval)
        return interval
    }

    /// The app stopped sampling after the last sample and was launched again (`detail` says how)
    /// before the sample at `time`: opens the `terminated-by-system` gap the next sample closes,
    /// as ``LocationStore/noteLaunch(_:at:)`` does for a launch it saw.
    static func relaunched(_ db: Database, detail: String, before time: Instant) throws {
        guard
            let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT last_sample_at FROM gap_clock WHERE id = 1"))
        else { return }
        try openRelaunch(
            db, .terminatedBySystem, detail: detail, since: Instant(milliseconds: min(last, time.milliseconds)))
    }

    /// Opens the gap of a relaunch (`reason` force-quit or terminated-by-system) from `since`,
    /// replacing one a launch before it opened: launched again before a sample is one silence,
    /// explained by the latest launch.
    static func openRelaunch(_ db: Database, _ reason: GapReason, detail: String?, since: Instant) throws {
        try db.cachedStatement(sql: "DELETE FROM gap_open WHERE reason IN (?, ?)").execute(arguments: [
            GapReason.forceQuit.rawValue, GapReason.terminatedBySystem.rawValue,
        ])
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO gap_open (reason, since, detail) VALUES (?, ?, ?)")
            .execute(arguments: [reason.rawValue, since.milliseconds, detail])
    }

    /// Called in the transaction that stores a sample: ends a relaunch's gap at this sample, ends
    /// a storage-full condition the shell kept in memory, and records a same-process silence
    /// before either as suspension (what woke the app is the detail).
    static func sampled(
        _ db: Database, at time: Instant, trigger: SampleTrigger, state: SampleAppState,
        storageFull: StorageFullWatch = StorageFullWatch(), makeID: () -> UUID
    ) throws {
        let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT last_sample_at FROM gap_clock WHERE id = 1"))
        try db.cachedStatement(sql: "UPDATE gap_clock SET last_sample_at = ? WHERE id = 1").execute(
            arguments: [max(last ?? time.milliseconds, time.milliseconds)])
        var closed = false
        for reason in processReasons {
            closed = try close(db, reason.rawValue, at: time, makeID: makeID) != nil || closed
        }
        // The app was awake and sampling from the first refused sample on: only the silence
        // before it can be suspension.
        var silenceEnd = time
        if let full = storageFull.interval(until: time) {
            try insert(db, id: makeID(), full)
            silenceEnd = full.start
        }
        // No fix to be had: the app was awake and trying until the no-fix gap's end; a silence
        // before its start or after its end (the app stopped trying) is suspension.
        var silenceStart = last
        if let noFix = try close(
            db, GapReason.noFix.rawValue, at: silenceEnd, shorterThan: LocationStore.noFixMinimum, makeID: makeID)
        {
            if let last, noFix.start.milliseconds - last > LocationStore.suspendedGapThreshold.milliseconds {
                try insert(
                    db, id: makeID(),
                    GapInterval(start: Instant(milliseconds: last), end: noFix.start, reason: .suspended))
            }
            silenceStart = noFix.end.milliseconds
        }
        guard !closed, let last = silenceStart,
            silenceEnd.milliseconds - last > LocationStore.suspendedGapThreshold.milliseconds
        else { return }
        var detail: String? = state == .foreground ? "the user opened the app" : "woken by \(wakeWords(trigger))"
        // What woke the app before the storage filled is not known by now.
        if silenceEnd < time { detail = nil }
        try insert(
            db, id: makeID(),
            GapInterval(start: Instant(milliseconds: last), end: silenceEnd, reason: .suspended, detail: detail))
    }

    static func explanation(_ cause: GapLaunchCause, toldToTerminate: Bool) -> (GapReason, String) {
        switch (cause, toldToTerminate) {
        case (.user, true): (.forceQuit, "the user reopened it")
        case (.user, false):
            (.terminatedBySystem, "killed or force-quit (iOS does not say which); the user reopened it")
        case (.system(let why), _): (.terminatedBySystem, "killed; iOS relaunched it for \(why)")
        }
    }

    static func pending(_ row: Row) -> (id: UUID, interval: ReportedInterval)? {
        guard let text: String = row["id"], let id = UUID(uuidString: text), let raw: String = row["reason"],
            let interval = ReportedInterval(
                start: Instant(milliseconds: row["start"]), end: Instant(milliseconds: row["end"]), reason: raw,
                detail: row["detail"])
        else { return nil }
        return (id, interval)
    }

    private static func wakeWords(_ trigger: SampleTrigger) -> String {
        switch trigger {
        case .timer: "its own timer"
        case .significant: "a significant location change"
        case .visit: "a visit"
        case .region: "a region exit"
        case .foreground: "the user opening the app"
        case .refresh: "a background refresh"
        case .push: "a push"
        case .manual: "a manual sample"
        case .motion: "the motion coprocessor"
        }
    }
}

extension Duration {
    fileprivate var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
