import BackgroundCore
import Foundation

/// Device and session tokens the server checked in the last second, by their hash, for the
/// single-point lane (``SinglePointLane``), which answers OwnTracks and OsmAnd points without a
/// task and so without a database read for the token.
///
/// Only a successful ``Authenticator/writer(token:)`` through the router fills it, so a token the
/// lane has not seen in the last second goes the router's way, is checked against the store, and
/// is remembered. A token revoked by `bgtrack device revoke` (another process, the same database)
/// or by another server on the same PostgreSQL is refused within ``lifetime``; a session logged out
/// here, at once. Lock-guarded (never held across an `await`), hence `@unchecked Sendable`.
public final class WriterCache: @unchecked Sendable {
    /// How long a checked token is trusted without asking the store again.
    public static let lifetime: Duration = .seconds(1)
    /// Tokens held at most; past it the cache starts again empty (a flood of distinct tokens costs
    /// store reads, never memory).
    static let capacity = 10_000

    private struct Entry {
        var device: String
        var until: Instant
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    public init() {}

    /// The device whose token has this hash, if it was checked less than ``lifetime`` before `now`.
    func device(tokenHash: String, at now: Instant) -> String? {
        lock.withLock {
            guard let entry = entries[tokenHash], now < entry.until else { return nil }
            return entry.device
        }
    }

    /// Notes that the token with this hash writes to `device`, as checked against the store at `now`.
    func remember(_ device: String, tokenHash: String, at now: Instant) {
        lock.withLock {
            if entries.count >= Self.capacity, entries[tokenHash] == nil { entries.removeAll(keepingCapacity: true) }
            entries[tokenHash] = Entry(device: device, until: now + Self.lifetime)
        }
    }

    /// Forgets every token (a session logged out, a device revoked by this process).
    func forgetAll() {
        lock.withLock { entries.removeAll() }
    }
}
