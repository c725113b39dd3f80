import Foundation
import HTTPTypes

/// Bounds the heavy reads (track exports, map pages) running at once, so memory is set by the
/// configuration (`maxConcurrentReads` × one page, one simplification window and one written
/// piece each) and not by how many clients ask at the same moment.
///
/// A read over the bound is refused at once with a 503 and `Retry-After` rather than queued: a
/// queue would hold the connection and its request while the client, not the server, is the one
/// who knows whether it still wants the answer. When the last read of a burst ends, the server
/// hands the freed heap back to the system (glibc's `malloc_trim`), so the resident size returns
/// to its idle level instead of staying at the burst's peak.
///
/// Lock-guarded state (a counter under an `NSLock`, never held across an `await`), hence
/// `@unchecked Sendable`.
public final class ReadLimiter: @unchecked Sendable {
    /// Reads allowed at once.
    public let limit: Int
    /// Seconds a refused client is asked to wait.
    public let retryAfterSeconds: Int
    private let trim: @Sendable () -> Void
    private let lock = NSLock()
    private var active = 0
    private var refusedCount = 0

    /// - Parameters:
    ///   - trim: run when the last running read ends; by default `malloc_trim(0)` on glibc.
    public init(limit: Int, retryAfterSeconds: Int = 1, trim: @escaping @Sendable () -> Void = Heap.trim) {
        self.limit = max(1, limit)
        self.retryAfterSeconds = retryAfterSeconds
        self.trim = trim
    }

    /// Reads running now.
    public var running: Int { lock.withLock { active } }
    /// Reads refused so far.
    public var refused: Int { lock.withLock { refusedCount } }

    /// A permit for one read, released when the permit is (explicitly or when the last reference to
    /// it goes, so a response body that is never written cannot keep a place for ever).
    /// - Throws: a 503 ``APIError`` with `Retry-After` when `limit` reads are running.
    func acquire() throws(APIError) -> ReadPermit {
        let admitted = lock.withLock {
            guard active < limit else {
                refusedCount += 1
                return false
            }
            active += 1
            return true
        }
        guard admitted else {
            throw APIError(
                .serviceUnavailable,
                "\(limit) track reads are running, the most this server runs at once (serve --max-concurrent-reads); "
                    + "retry after \(retryAfterSeconds) s",
                headers: [.retryAfter: "\(retryAfterSeconds)"])
        }
        return ReadPermit(self)
    }

    fileprivate func release() {
        let idle = lock.withLock {
            active -= 1
            return active == 0
        }
        if idle { trim() }
    }
}

/// One admitted read: ``release()`` it when the read is over; it releases itself when dropped.
final class ReadPermit: @unchecked Sendable {
    // Lock-guarded `released`, hence `@unchecked Sendable`.
    private let limiter: ReadLimiter
    private let lock = NSLock()
    private var released = false

    fileprivate init(_ limiter: ReadLimiter) { self.limiter = limiter }

    func release() {
        let first = lock.withLock {
            defer { released = true }
            return !released
        }
        if first { limiter.release() }
    }

    deinit { release() }
}
