public import BackgroundCore
import Foundation
import HTTPTypes

/// The ingest write pipeline (group commit): concurrent requests hand their validated samples
/// here, one commit stores whatever is waiting, and every request in it is answered after that
/// commit returned.
///
/// At `synchronous = FULL` each commit costs an fsync, so one transaction per request caps
/// single-point clients (OwnTracks, Traccar) at the disk's sync rate. Here requests that arrive
/// while a commit is being synced wait for the next one and share it (``CommitQueue`` decides who
/// commits and what). The commit runs in ``TrackStore/insertGroup(_:)``: in SQLite and PostgreSQL,
/// one transaction with a savepoint per request, so one request's failure fails only that request.
///
/// No background task: the request that finds nobody committing commits, and hands the lead to
/// the next waiting request when done.
///
/// Lock-guarded state (``CommitQueue`` under an `NSLock`, never held across an `await`), hence
/// `@unchecked Sendable`.
public final class SampleCommitter: @unchecked Sendable {
    private enum Wake: Sendable {
        case lead
        case committed(Result<InsertOutcome, any Error>)
        case refused
    }

    /// A queued request: its rows and how to answer it.
    private struct Waiting {
        var request: GroupInsert
        var continuation: CheckedContinuation<Wake, Never>
    }

    private let store: any TrackStore
    private let limits: GroupCommitLimits
    private let lock = NSLock()
    private var queue: CommitQueue<Waiting>
    private var counts = Counters()

    /// What `/metrics` shows of the pipeline; counted under the queue's lock, no extra hop.
    public struct Counters: Sendable, Equatable {
        public var commits = 0
        public var requests = 0
        public var samples = 0
        /// Requests answered 503 because the queue was full.
        public var refused = 0
    }

    public var counters: Counters { lock.withLock { counts } }

    public init(store: any TrackStore, limits: GroupCommitLimits) {
        self.store = store
        self.limits = limits
        queue = CommitQueue(limits: limits)
    }

    /// Requests waiting (including those being committed).
    var pendingCount: Int { lock.withLock { queue.count } }

    /// Stores one request's samples and returns after the commit that holds them.
    /// - Parameters:
    ///   - bytes: the request's body size, for the per-commit byte bound.
    /// - Throws: a 503 ``APIError`` with `Retry-After` when the queue is full (nothing written);
    ///   the store's error for this request's rows (the other requests of its group are stored).
    public func insert(_ samples: [TrackSample], device: String, at now: Instant, bytes: Int) async throws
        -> InsertOutcome
    {
        guard limits.enabled else { return try await store.insert(samples, device: device, at: now) }
        let request = GroupInsert(samples: samples, device: device, now: now)
        var id: UInt64 = 0
        let wake = await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
            let admission = lock.withLock {
                let admission = queue.admit(
                    samples: samples.count, bytes: bytes,
                    waiter: Waiting(request: request, continuation: continuation))
                if admission == .refuse { counts.refused += 1 }
                return admission
            }
            switch admission {
            case .lead(let admitted):
                id = admitted
                continuation.resume(returning: .lead)
            case .wait(let admitted):
                id = admitted
            case .refuse:
                continuation.resume(returning: .refused)
            }
        }
        switch wake {
        case .refused:
            throw APIError(
                .serviceUnavailable,
                "the server's write queue is full (at most \(limits.maxPendingRequests) requests or "
                    + "\(limits.maxPendingSamples) samples wait); nothing was stored, retry after "
                    + "\(limits.retryAfterSeconds) s",
                headers: [.retryAfter: "\(limits.retryAfterSeconds)"])
        case .committed(let result):
            return try result.get()
        case .lead:
            return try await lead(own: id).get()
        }
    }

    /// Commits the group at the front of the queue (this request is its first), answers the rest
    /// of it, and hands the lead to the request that is then at the front.
    private func lead(own id: UInt64) async -> Result<InsertOutcome, any Error> {
        let group = lock.withLock { queue.takeGroup() }
        let requests = group.map(\.waiter.request)
        // The store's commit must run to its end even if this request's task is cancelled (its
        // client hung up): the group's other requests ride on it (see `insertGroup`).
        let results: [Result<InsertOutcome, any Error>]
        do {
            let answered = try await store.insertGroup(requests)
            results =
                answered.count == group.count
                ? answered
                : Array(repeating: .failure(GroupCommitError.resultCount(answered.count)), count: group.count)
        } catch {
            results = Array(repeating: .failure(error), count: group.count)
        }
        var own: Result<InsertOutcome, any Error> = .failure(CancellationError())
        for (entry, result) in zip(group, results) {
            if entry.id == id {
                own = result
            } else {
                entry.waiter.continuation.resume(returning: .committed(result))
            }
        }
        let next = lock.withLock {
            counts.commits += 1
            counts.requests += group.count
            counts.samples += requests.reduce(0) { $0 + $1.samples.count }
            return queue.finishGroup()
        }
        next?.waiter.continuation.resume(returning: .lead)
        return own
    }
}

/// A store broke the ``TrackStore/insertGroup(_:)`` contract.
struct GroupCommitError: Error, CustomStringConvertible {
    static func resultCount(_ count: Int) -> GroupCommitError { GroupCommitError(count: count) }
    var count: Int
    var description: String {
        "the store answered \(count) results for a group of another size; nothing of the group is acknowledged"
    }
}
