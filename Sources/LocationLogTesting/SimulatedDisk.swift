import Foundation
import SQLiteFullDisk

/// A directory on a simulated disk whose free space the test sets (`Sources/SQLiteFullDisk`): a
/// store opened in it gets `SQLITE_FULL` wherever one of its files must grow, the write-ahead log
/// included, as on a phone whose storage is full. Truncated and deleted files give space back.
///
/// ```swift
/// let disk = try SimulatedDisk()
/// let (store, _) = try LocationStore.open(path: disk.storePath, now: time.now)
/// disk.fill()      // no byte free from now on, nor freed later
/// disk.freeAll()   // the user made room
/// disk.lock()      // rebooted: nothing opens until the first unlock
/// ```
public final class SimulatedDisk: Sendable {
    /// The directory, with a trailing slash; every SQLite file under it is on this disk.
    public let directory: String

    public struct InstallFailed: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String {
            "the simulated disk's SQLite VFS could not be installed (SQLite code \(code))"
        }
    }

    /// A new, empty directory on a disk with unlimited free space.
    public init() throws {
        let code = bgt_fulldisk_install()
        guard code == 0 else { throw InstallFailed(code: code) }
        directory = NSTemporaryDirectory() + "bgt-fulldisk-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        bgt_fulldisk_set(directory, -1)
    }

    deinit {
        bgt_fulldisk_unwatch(directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Where a test opens its store.
    public var storePath: String { directory + "phone.sqlite" }

    /// The disk is full and stays full: no byte is free, and what a file gives back (a
    /// checkpoint truncating the write-ahead log) other apps take at once.
    public func fill() { bgt_fulldisk_fill(directory) }

    /// `bytes` are free from now on, and what a file gives back is free again.
    public func setFree(bytes: Int64) { bgt_fulldisk_set(directory, bytes) }

    /// The user made room: unlimited space again.
    public func freeAll() { bgt_fulldisk_set(directory, -1) }

    /// The phone rebooted: its files (class `completeUntilFirstUserAuthentication`) cannot be
    /// opened, read or written until ``unlock()``, the user's first unlock; SQLite reports a
    /// disk I/O error (or cannot open the file), as it does on a phone.
    public func lock() { bgt_fulldisk_lock(directory, 1) }

    /// The user unlocked the phone for the first time since it booted.
    public func unlock() { bgt_fulldisk_lock(directory, 0) }

    /// How many file operations the disk refused while locked.
    public var lockedRefusals: Int64 { bgt_fulldisk_locked_refusals(directory) }

    /// The bytes free now (negative: unlimited).
    public var freeBytes: Int64 { bgt_fulldisk_free(directory) }

    /// How many writes the disk refused for lack of space.
    public var refusedWrites: Int64 { bgt_fulldisk_refused(directory) }

    /// The size of a file in the directory (0 when missing), e.g. `"phone.sqlite-wal"`.
    public func size(of name: String) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: directory + name)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
