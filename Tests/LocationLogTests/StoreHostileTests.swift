import BackgroundCore
import Foundation
import GRDB
import LocationLog
import LocationLogTesting
import Testing

/// Corrupt files, read-only locations and full disks: the store reports, moves aside, pauses,
/// and never crashes or deletes.
@Suite struct StoreHostileTests {
    let now = Instant(milliseconds: 1_732_240_000_000)

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func fix(_ index: Int) -> LocationFix {
        LocationFix(
            timestamp: now + .seconds(Int64(index) * 120), latitude: 31.23 + Double(index) * 1e-5,
            longitude: 121.47, horizontalAccuracy: 10)
    }

    @Test func garbageFileIsMovedAsideNeverDeleted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        var random = SeededRandom(seed: 3)
        let garbage = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &random) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let (store, report) = try LocationStore.open(path: path, now: now)
        let moved = try #require(report.movedAside)
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == garbage)
        #expect(report.message?.contains("moved aside to \(moved)") == true)
        #expect(try store.diagnostics().contains { $0.message.contains("unreadable") })
        try store.append(fix(0), trigger: .timer, state: .background)
        #expect(try store.pendingCount() == 1)
    }

    @Test func damagedPagesAreDetectedAndMovedAside() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        do {
            let (store, _) = try LocationStore.open(path: path, now: now)
            for index in 0..<2000 { try store.append(fix(index), trigger: .timer, state: .background) }
        }
        // Overwrite pages in the middle of the file (the header stays valid).
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 16384))
        try handle.close()
        let (store, report) = try LocationStore.open(path: path, now: now)
        #expect(report.movedAside != nil, "a damaged file must be set aside")
        #expect(FileManager.default.fileExists(atPath: report.movedAside ?? "/nonexistent"))
        #expect(try store.pendingCount() == 0)
    }

    /// A file that is a sound SQLite database but whose rows hold values of the wrong type (SQLite
    /// does not enforce column types: another tool, a hand edit) must not crash the reader: GRDB's
    /// `row["t"]` is a `try!`. Unreadable rows are left alone and reported, never deleted.
    @Test func rowsOfTheWrongTypeDoNotCrashTheStore() throws {
        let queue = try DatabaseQueue()
        let store = try LocationStore(writer: queue)
        for index in 0..<3 { try store.append(fix(index), trigger: .timer, state: .background) }
        try queue.write { db in
            try db.execute(sql: "UPDATE sample SET t = 'yesterday' WHERE seq = 1")
            try db.execute(sql: "UPDATE sample SET acc = x'00ff' WHERE seq = 2")
            try db.execute(sql: "UPDATE sync_state SET consecutive_failures = 'many', retry_at = 'soon'")
            try db.execute(sql: "INSERT INTO diagnostic (t, level, message) VALUES ('noon', 'info', x'ff')")
        }
        let batch = try store.oldestPending(limit: 10)
        #expect(batch.map(\.seq) == [3])
        #expect(try store.pendingCount() == 3, "unreadable rows are kept, not deleted")
        #expect(throws: StoreError.self) { try store.syncSnapshot() }
        #expect(throws: StoreError.self) { try store.diagnostics() }
        #expect(try store.quarantined().isEmpty)
    }

    /// Paths SQLite treats specially would give a store that vanishes on close (`""` is a private
    /// temporary file, `:memory:` lives in RAM): every "durable" insert lost at the next launch.
    /// A directory is not a store file either. Each is refused with a message naming the fix.
    @Test(arguments: ["", ":memory:", "file::memory:", "/tmp", "/tmp/"])
    func pathsThatCannotHoldADurableStoreAreRefused(path: String) throws {
        #expect {
            try LocationStore.open(path: path, now: now)
        } throws: { error in
            guard case .cannotOpen(_, let reason) = error as? StoreError else { return false }
            return reason.contains("not a durable file") || reason.contains("it is a directory; name a file inside it")
        }
    }

    /// A sync state of the right types but absurd values (a hand edit, another tool, a bug in an
    /// older version) used to trap (Instant arithmetic on ±2^63 ms, `consecutiveFailures += 1` at
    /// Int.max) or stall uploads for good (a batch size of 0 reads empty batches for ever).
    @Test func absurdSyncStateNeitherTrapsNorStallsUploads() async throws {
        let queue = try DatabaseQueue()
        let store = try LocationStore(writer: queue)
        for index in 0..<3 { try store.append(fix(index), trigger: .timer, state: .background) }
        try await queue.write { db in
            try db.execute(
                sql: """
                    UPDATE sync_state SET last_success = -9223372036854775808, retry_at = -9223372036854775807,
                    consecutive_failures = 9223372036854775807, batch_size = 0
                    """)
        }
        let snapshot = try store.syncSnapshot()
        #expect(snapshot.lastSuccess == nil && snapshot.retryAt == nil && snapshot.batchSize == nil)
        #expect((0...64).contains(snapshot.consecutiveFailures))
        let time = ManualTime(now)
        let failing = try SyncEngine(
            store: store,
            transport: ScriptedTransport([ScriptedTransport.always(.serverError(status: 503, message: ""))]),
            device: "d", seed: 1, now: time.reader)
        #expect(try await failing.wake().uploads == 1)
        #expect(try await failing.nextWake() != nil)
        let sync = try SyncEngine(store: store, transport: ScriptedTransport(), device: "d", seed: 1, now: time.reader)
        time.advance(by: .seconds(3600))
        #expect(try await sync.wake().deleted == 3)
    }

    /// Platform "unknown" markers (CoreLocation's speed and course -1, UIDevice's battery -1) and
    /// infinities used to be stored as they came: the server rejects -1 (the sample, position and
    /// all, ends in quarantine), and an infinite value cannot be encoded as JSON, so every batch
    /// holding it failed for ever and nothing after it was uploaded again.
    @Test func unknownsAreStoredAsNilAndUnsendablePositionsAreRefused() throws {
        let store = try LocationStore.inMemory()
        let odd = LocationFix(
            timestamp: now, latitude: 31.23, longitude: 121.47, horizontalAccuracy: 10, altitude: .infinity,
            speed: -1, course: -1)
        let sample = try store.append(
            odd, trigger: .timer, state: .background, power: PowerContext(battery: -1, charging: true))
        #expect(sample.altitude == nil && sample.speed == nil && sample.course == nil && sample.battery == nil)
        #expect(sample.accuracy == 10 && sample.charging == true)
        let batch = try store.oldestPending(limit: 10)
        #expect(batch == [sample])
        _ = try JSONEncoder().encode(BatchRequest(batch: UUID(), device: "d", samples: batch))
        #expect(throws: Never.self) { try batch[0].check(receivedAt: now) }
        let nowhere = LocationFix(timestamp: now, latitude: .infinity, longitude: 121.47, horizontalAccuracy: 10)
        #expect {
            try store.append(nowhere, trigger: .timer, state: .background)
        } throws: { error in
            "\(error)".contains("latitude inf is not a finite number")
        }
        #expect(try store.pendingCount() == 1)
    }

    /// A value outside its rule (an altitude of 200 km, a speed of 3 km/s, an accuracy of 0 m or
    /// of 2,000 km) is stored unknown, one value at a time, so the server never refuses the
    /// sample for it; the values within their rules are kept as they came.
    @Test func valuesOutsideTheirRulesAreStoredUnknownOneByOne() throws {
        let store = try LocationStore.inMemory()
        for (fix, kept) in [
            (
                LocationFix(
                    timestamp: now, latitude: 31.23, longitude: 121.47, horizontalAccuracy: 10, altitude: 200_000,
                    verticalAccuracy: 0, speed: 3_000, course: 90),
                SampleValues(time: now, latitude: 31.23, longitude: 121.47, accuracy: 10, course: 90)
            ),
            (
                LocationFix(
                    timestamp: now, latitude: 31.23, longitude: 121.47, horizontalAccuracy: 2_000_000,
                    altitude: -11_000, verticalAccuracy: 4, speed: 2_000, course: 360),
                SampleValues(
                    time: now, latitude: 31.23, longitude: 121.47, verticalAccuracy: 4, altitude: -11_000,
                    speed: 2_000, course: 360)
            ),
        ] {
            let sample = try store.append(fix, trigger: .timer, state: .background)
            #expect(sample.values == kept)
            #expect(throws: Never.self) { try sample.check(receivedAt: now) }
        }
    }

    /// A sample counter at Int64.max (a damaged or hand-edited file) trapped on `seq + 1` in every
    /// append; it is an error now, which pauses nothing else and names the way out.
    @Test func anExhaustedSampleCounterIsAnErrorNotATrap() throws {
        let queue = try DatabaseQueue()
        let store = try LocationStore(writer: queue)
        try queue.write { try $0.execute(sql: "UPDATE sync_state SET next_seq = 9223372036854775807") }
        #expect {
            try store.append(fix(0), trigger: .timer, state: .background)
        } throws: { error in
            "\(error)".contains("next_seq is 9223372036854775807")
        }
        #expect(try store.pendingCount() == 0)
    }

    @Test func missingDirectorySaysSo() throws {
        #expect {
            try LocationStore.open(path: "/nonexistent-\(UUID().uuidString)/store.sqlite", now: now)
        } throws: { error in
            "\(error)".contains("does not exist")
        }
    }

    /// Disk full via `PRAGMA max_page_count`: appends fail with `diskFull`, the recorder pauses
    /// sampling with one diagnostic, earlier samples are intact, nothing crashes.
    @Test func fullDatabaseFilePausesSampling() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        var config = Configuration()
        config.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: config)
        let store = try LocationStore(writer: queue, path: path)
        let pages = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages + 4)") }
        var recorder = SampleRecorder(store: store, sampling: .init(interval: .seconds(120)))
        recorder.start(at: now)
        var stored: [UUID] = []
        var failure: StoreError?
        for index in 0..<5000 {
            let at = now + .seconds(Int64(index) * 120)
            switch recorder.record(fix(index), trigger: .timer, state: .background, at: at) {
            case .stored(let sample): stored.append(sample.id)
            case .notStored(let error): failure = error
            default: break
            }
            if failure != nil { break }
        }
        let error = try #require(failure)
        #expect(error.isDiskFull)
        #expect("\(error)".contains("is full"))
        #expect(!stored.isEmpty)
        #expect(recorder.pausedUntil != nil)
        #expect(!recorder.wantsFix(at: recorder.pausedUntil.map { $0 - .seconds(1) } ?? now))
        let pausedAt = (recorder.pausedUntil ?? now) - recorder.pauseRetry
        #expect(
            recorder.wantsFix(at: pausedAt - .seconds(86_400)),
            "a clock set back a day does not stretch the pause by a day")
        #expect(try store.pendingIDs() == Set(stored))
        // Space comes back (the limit is lifted, as after an upload freed pages): sampling resumes.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
        let later = (recorder.pausedUntil ?? now) + .seconds(1)
        let resumed = recorder.record(
            LocationFix(timestamp: later, latitude: 31.3, longitude: 121.5, horizontalAccuracy: 9), trigger: .timer,
            state: .background, at: later)
        guard case .stored = resumed else {
            Issue.record("sampling did not resume: \(resumed)")
            return
        }
        #expect(try store.diagnostics().contains { $0.message.contains("sampling resumed") })
        #expect(try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
    }

    /// Disk full for real: a 512 KiB tmpfs (needs root and mount rights; reported as skipped otherwise).
    @Test(.enabled(if: TinyMount.canMount, "needs root and CAP_SYS_ADMIN to mount a tmpfs"))
    func realFullFileSystemNeverCrashes() throws {
        let mount = try #require(TinyMount(sizeKiB: 512), "a tmpfs mounted for the probe but not now")
        defer { mount.unmount() }
        let path = mount.path + "/store.sqlite"
        let (store, _) = try LocationStore.open(path: path, now: now)
        // Fill the disk around the store so only a little room is left.
        let filler = mount.path + "/filler"
        #expect(FileManager.default.createFile(atPath: filler, contents: Data(repeating: 1, count: 200 * 1024)))
        var stored: [UUID] = []
        var failure: StoreError?
        for index in 0..<100_000 {
            do {
                stored.append(try store.append(fix(index), trigger: .timer, state: .background).id)
            } catch {
                failure = error
                break
            }
        }
        #expect(failure?.isDiskFull == true, "expected disk full, got \(String(describing: failure))")
        #expect(try store.pendingIDs() == Set(stored))
        try FileManager.default.removeItem(atPath: filler)
        #expect(throws: Never.self) { try store.append(fix(0), trigger: .timer, state: .background) }
        print("tmpfs disk full after \(stored.count) samples; every returned insert present")
    }

    /// A read-only location: a clear error naming the path, nothing moved or deleted.
    @Test(
        .enabled(if: getuid() != 0 || TinyMount.canMount, "as root it needs a tmpfs mount, which is not allowed here"))
    func readOnlyDirectoryIsReportedClearly() throws {
        let directory: String
        var mount: TinyMount?
        if getuid() == 0 {
            // root ignores permission bits, so use a read-only mount instead of chmod.
            // Room for the schema and its log: on a full mount the log outlives the close, and a
            // read-only open then succeeds through it.
            let made = try #require(TinyMount(sizeKiB: 1024), "a tmpfs mounted for the probe but not now")
            mount = made
            directory = made.path
        } else {
            directory = try temporaryDirectory().path
        }
        defer {
            mount?.unmount()
            if mount == nil { try? FileManager.default.removeItem(atPath: directory) }
        }
        // An existing store first, then the location turns read-only.
        let path = directory + "/store.sqlite"
        do {
            let (store, _) = try LocationStore.open(path: path, now: now)
            try store.append(fix(0), trigger: .timer, state: .background)
        }
        if let mount {
            #expect(mount.remountReadOnly())
        } else {
            chmod(directory, 0o555)
        }
        defer { if mount == nil { chmod(directory, 0o755) } }
        #expect {
            try LocationStore.open(path: path, now: now)
        } throws: { error in
            let text = "\(error)"
            print("read-only store: \(text)")
            return text.contains(path) && (text.contains("writable") || text.contains("cannot open"))
        }
        #expect(FileManager.default.fileExists(atPath: path), "a read-only store must never be moved or deleted")
        // A new store in the read-only location fails the same clear way.
        #expect(throws: StoreError.self) { try LocationStore.open(path: directory + "/new.sqlite", now: now) }
    }

    /// The durability setting reaches SQLite (GRDB's WAL set-up would otherwise force NORMAL).
    @Test(arguments: [(Durability.processCrash, 1), (.powerLoss, 2)])
    func durabilityReachesSQLite(durability: Durability, level: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = try LocationStore.open(
            path: directory.appendingPathComponent("store.sqlite").path, durability: durability, now: now)
        #expect(try store.synchronousLevel() == level)
        #expect(try store.journalMode() == "wal")
    }

    @Test func diagnosticsLogIsBounded() throws {
        let store = try LocationStore(writer: DatabaseQueue(), diagnosticsLimit: 50)
        for index in 0..<500 { try store.log(.info, "line \(index)", at: now) }
        let lines = try store.diagnostics(limit: 1000)
        #expect(lines.count == 50)
        #expect(lines.first?.message == "line 450" && lines.last?.message == "line 499")
    }

    @Test func rejectedFixesAreLoggedWithTheReason() throws {
        let store = try LocationStore.inMemory()
        var recorder = SampleRecorder(store: store)
        recorder.start(at: now)
        let bad = LocationFix(timestamp: now, latitude: 0, longitude: 0, horizontalAccuracy: 5)
        guard
            case .rejected(.breaksRule(let violation)) = recorder.record(
                bad, trigger: .timer, state: .foreground, at: now)
        else {
            Issue.record("a fix at exactly 0,0 must break the sample rules")
            return
        }
        #expect(violation.code == .nullIsland)
        let stale = LocationFix(timestamp: now - .seconds(600), latitude: 31, longitude: 121, horizontalAccuracy: 5)
        guard case .rejected(.stale) = recorder.record(stale, trigger: .timer, state: .foreground, at: now) else {
            Issue.record("a 600 s old fix with a 120 s interval must be stale")
            return
        }
        let messages = try store.diagnostics().map(\.message)
        #expect(messages.contains { $0.contains("0,0") })
        #expect(messages.contains { $0.contains("600 s old") })
    }
}

/// A tmpfs of a given size mounted in a temporary directory (root only).
struct TinyMount {
    let path: String

    /// Whether a tmpfs can be mounted here (root with CAP_SYS_ADMIN): tried once, then unmounted.
    static let canMount: Bool = {
        guard let probe = TinyMount(sizeKiB: 64) else { return false }
        probe.unmount()
        return true
    }()

    init?(sizeKiB: Int) {
        guard getuid() == 0 else { return nil }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfs-\(UUID().uuidString)").path
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil,
            Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(sizeKiB)k", "tmpfs", path])
        else { return nil }
        self.path = path
    }

    func remountReadOnly() -> Bool {
        Self.run("/bin/mount", ["-o", "remount,ro", path])
    }

    func unmount() {
        _ = Self.run("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }

    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
