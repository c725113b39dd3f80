public import BackgroundCore
public import Foundation
import GRDB

/// What happened while opening a store file.
public struct StoreOpenReport: Hashable, Sendable {
    /// Where an unreadable file was moved, when it was; it is kept for support, never deleted.
    public var movedAside: String?
    /// Why it was moved.
    public var reason: String?

    /// A line for the user and the log, or `nil` when the file opened normally.
    public var message: String? {
        guard let movedAside else { return nil }
        return "the location store was unreadable (\(reason ?? "unknown reason")); it was moved aside to "
            + "\(movedAside) and a new, empty store was created. The old file may hold unsent samples: keep it."
    }
}

extension LocationStore {
    /// Opens (or creates) the store file at `path` in WAL mode.
    ///
    /// A file SQLite cannot read as a database (not a database, corrupt, or failing
    /// `PRAGMA quick_check`) is renamed to `<path>.unreadable-<time>` together with its `-wal` and
    /// `-shm` files, a fresh store is created, and the report says so; nothing is ever deleted.
    /// - Parameters:
    ///   - durability: the phone's default is `.processCrash` (no fsync per sample; a sample is
    ///     deleted only once the server acknowledged it); the server's store defaults to `.powerLoss`.
    ///   - now: names the moved-aside file and stamps the diagnostic.
    ///   - observesSuspension: the store obeys `LocationStore.suspendAll()` / `resumeAll()` (GRDB's
    ///     suspension notifications), so an iOS app suspended in the background holds no lock on
    ///     the file (0xdead10cc). The iOS shell turns it on; other shells need not.
    /// - Throws: `StoreError.notWritable` for read-only locations, `.cannotMoveAside` when a bad
    ///   file cannot be renamed, `.diskFull`, `.cannotOpen`.
    public static func open(
        path: String, durability: Durability = .processCrash, now: Instant,
        makeID: @escaping @Sendable () -> UUID = { UUID() }, observesSuspension: Bool = false
    ) throws(StoreError) -> (LocationStore, StoreOpenReport) {
        // SQLite reads these as a temporary or in-memory database, which would lose every sample at
        // close; GRDB's WAL set-up refuses them with only "SQL logic error".
        if path.isEmpty || path == ":memory:" || (path.hasPrefix("file:") && path.contains("memory")) {
            throw StoreError.cannotOpen(
                path: path,
                reason: "\"\(path)\" names a temporary or in-memory database, not a durable file; "
                    + "pass a file path such as /var/lib/bgtrack/phone.sqlite")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw StoreError.cannotOpen(
                path: path,
                reason: "it is a directory; name a file inside it, e.g. "
                    + (path as NSString).appendingPathComponent("phone.sqlite"))
        }
        let directory = (path as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: directory.isEmpty ? "." : directory, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw StoreError.cannotOpen(path: path, reason: "the directory \(directory) does not exist")
        }
        do {
            return (
                try openChecked(
                    path: path, durability: durability, makeID: makeID, observesSuspension: observesSuspension),
                StoreOpenReport()
            )
        } catch let failure as Unreadable {
            let target = try moveAside(path: path, now: now)
            let report = StoreOpenReport(movedAside: target, reason: failure.reason)
            do {
                let store = try openChecked(
                    path: path, durability: durability, makeID: makeID, observesSuspension: observesSuspension)
                try store.log(.error, report.message ?? "", at: now)
                return (store, report)
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "\(error)")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            let mapped = StoreError(error, operation: "opening", path: path)
            guard case .notWritable(_, let reason) = mapped, access(directory.isEmpty ? "." : directory, W_OK) != 0
            else { throw mapped }
            let why = String(cString: strerror(errno))
            throw StoreError.notWritable(
                path: path, reason: "\(reason); the directory \(directory) is not writable (\(why))")
        }
    }

    /// The write-ahead log's pages at which SQLite checkpoints it (about 15 samples' commits).
    static let logCheckpointPages = 100

    /// The configuration every store file uses.
    static func configuration(_ durability: Durability, observesSuspension: Bool = false) -> Configuration {
        var config = Configuration()
        config.observesSuspensionNotifications = observesSuspension
        config.journalMode = .wal
        config.label = "LocationStore"
        // Fail fast instead of waiting when another process holds the file: there is one writer.
        config.busyMode = .timeout(2)
        // `synchronous` is set after opening (see `openChecked`): GRDB's WAL set-up runs after
        // `prepareDatabase` and sets NORMAL, which would silently override FULL.
        return config
    }

    private struct Unreadable: Error {
        var reason: String
    }

    /// Opens, migrates and quick-checks; throws `Unreadable` for a file that is not a usable database.
    private static func openChecked(
        path: String, durability: Durability, makeID: @escaping @Sendable () -> UUID, observesSuspension: Bool
    ) throws -> LocationStore {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(
                path: path, configuration: configuration(durability, observesSuspension: observesSuspension))
            // One connection in a queue, so the setting holds for every later transaction.
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(durability.synchronousPragma)")
                // SQLite checkpoints by itself at 1000 pages (4 MB), and a sample's commit writes
                // about six pages to the log: on a phone with less free space the log took the
                // rest of the disk, and could then not be checkpointed (that needs room for the
                // pages it adds to the file). A small log is checkpointed every few samples and
                // reused from its start; one grown by a large transaction is cut back.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.logCheckpointPages)")
                try db.execute(sql: "PRAGMA journal_size_limit = \(Self.logCheckpointPages * 4096)")
            }
            let check = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else {
                try? queue.close()
                throw Unreadable(reason: "PRAGMA quick_check reported: \(check.prefix(3).joined(separator: "; "))")
            }
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw Unreadable(reason: "\(error.message ?? "not a database") (\(error.resultCode))")
        }
        do {
            return try LocationStore(writer: queue, path: path, makeID: makeID)
        } catch {
            if case .database(_, let reason) = error,
                reason.contains("SQLITE_NOTADB") || reason.contains("SQLITE_CORRUPT")
            {
                try? queue.close()
                throw Unreadable(reason: reason)
            }
            throw error
        }
    }

    /// Renames the file and its WAL/SHM companions to `<path>.unreadable-<time>[-n]`.
    private static func moveAside(path: String, now: Instant) throws(StoreError) -> String {
        let stamp = now.iso8601.replacingOccurrences(of: ":", with: "")
        var target = "\(path).unreadable-\(stamp)"
        var counter = 1
        while FileManager.default.fileExists(atPath: target) {
            counter += 1
            target = "\(path).unreadable-\(stamp)-\(counter)"
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, target + suffix) == 0 else {
                let reason = String(cString: strerror(errno))
                throw StoreError.cannotMoveAside(path: path, reason: "rename to \(target + suffix) failed: \(reason)")
            }
        }
        return target
    }
}
