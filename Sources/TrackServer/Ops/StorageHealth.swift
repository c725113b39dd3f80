public import BackgroundCore
import Foundation
import GRDB
import LocationLog
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An error a store reports when the database has no room left; the SQLite store's is GRDB's
/// `SQLITE_FULL`, the PostgreSQL store conforms its driver's `disk_full` (SQLSTATE 53100).
public protocol StorageFullReporting: Error {
    var isStorageFull: Bool { get }
}

/// Whether the disk under the database has room, as `/healthz` and `/metrics` report it, and the
/// last write refused for space (issue 41 item 2). A write that fails for space is answered 503
/// with `Retry-After` and a message naming the cause (``ErrorAndMetricsMiddleware``); reads never
/// write, so they go on working on a full disk.
public final class StorageHealth: Sendable {
    /// How long after a write refused for space `/healthz` still reports it.
    public static let rememberFull: Duration = .seconds(600)
    /// What a client refused for space is told to wait.
    public static let retryAfterSeconds = 60

    /// The directory whose filesystem holds the database (SQLite); `nil` when the server cannot
    /// see it (PostgreSQL on another host): then only refused writes tell.
    public let directory: String?
    /// Below this many free bytes `/healthz` reports degraded.
    public let minimumFreeBytes: Int64
    private let state = Mutex<(at: Instant, error: String, count: Int)?>(nil)

    public init(directory: String?, minimumFreeBytes: Int64) {
        self.directory = directory
        self.minimumFreeBytes = minimumFreeBytes
    }

    /// Whether `error` says the database has no room left.
    public static func isFull(_ error: any Error) -> Bool {
        if let error = error as? DatabaseError { return error.resultCode == .SQLITE_FULL }
        return (error as? any StorageFullReporting)?.isStorageFull ?? false
    }

    /// Records a write refused for space.
    func recordFull(_ error: any Error, at now: Instant) {
        let text = LogText.bounded("\(error)", limit: 300)
        state.withLock { $0 = (now, text, ($0?.count ?? 0) + 1) }
    }

    /// Writes refused for space since start.
    public var fullCount: Int { state.withLock { $0?.count ?? 0 } }

    /// Bytes available to the server on the database's filesystem (`statvfs`), `nil` when unknown.
    public var freeBytes: Int64? {
        guard let directory else { return nil }
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return nil }
        return Int64(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
    }

    /// Why the server is degraded, empty when it is not: free space below the minimum, a write
    /// refused for space in the last ``rememberFull``.
    public func problems(at now: Instant) -> [String] {
        var reasons: [String] = []
        if let free = freeBytes, free < minimumFreeBytes {
            reasons.append(
                "free space on \(directory ?? "the database's filesystem") is \(Self.megabytes(free)), below "
                    + "the \(Self.megabytes(minimumFreeBytes)) minimum (--min-free-mb): free space or move the "
                    + "database")
        }
        if let last = state.withLock({ $0 }), now - last.at < Self.rememberFull {
            reasons.append(
                "a write was refused for lack of space at \(last.at.iso8601)"
                    + " (\(last.count) since start): \(last.error)")
        }
        return reasons
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
