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
/// No background task and no task between two commits: the request that finds nobody committing
/// starts a commit, and each commit, from the store's completion (GRDB's writer queue for SQLite),
/// starts the next one while requests wait, then wakes the requests it stored. Waking a task
/// takes a thread hop; on two cores, a chain that waited for the woken leader's task before its
/// next commit spent most of each commit's time waiting to be scheduled (issue 23 item 5).
///
/// Lock-guarded state (``CommitQueue`` under an `NSLock`, never held across an `await`), hence
/// `@unchecked Sendable`.
public final class SampleCommitter: @unchecked Sendable {
    /// How a request submitted with ``submit(_:device:at:bytes:completion:)`` ended.
    public enum Submission: Sendable {
        /// Its commit ran: the outcome for its rows, or the store's error for them.
        case committed(Result<InsertOutcome, any Error>)
        /// The queue was full: nothing was written (answer 503 with `Retry-After`).
        case refused
    }

    /// A queued request: its rows and how to answer it.
    private struct Waiting: Sendable {
        var request: GroupInsert
        var completion: @Sendable (Submission) -> Void
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
        let submission = await withCheckedContinuation { (continuation: CheckedContinuation<Submission, Never>) in
            submit(samples, device: device, at: now, bytes: bytes) { continuation.resume(returning: $0) }
        }
        switch submission {
        case .refused:
            throw refusal
        case .committed(let result):
            return try result.get()
        }
    }

    /// ``insert(_:device:at:bytes:)`` without a task: `completion` is called once, on whatever
    /// thread the commit ended on (or at once, on the caller's, when refused). The single-point
    /// lane (``SinglePointLane``) answers from it on the connection's event loop.
    public func submit(
        _ samples: [TrackSample], device: String, at now: Instant, bytes: Int,
        completion: @escaping @Sendable (Submission) -> Void
    ) {
        let request = GroupInsert(samples: samples, device: device, now: now)
        guard limits.enabled else {
            store.insertGroup([request]) { results in
                completion(.committed(results.first ?? .failure(GroupCommitError.resultCount(results.count))))
            }
            return
        }
        let admission = lock.withLock {
            let admission = queue.admit(
                samples: samples.count, bytes: bytes, waiter: Waiting(request: request, completion: completion))
            if admission == .refuse { counts.refused += 1 }
            return admission
        }
        switch admission {
        case .lead: commitNextGroup()
        case .wait: break
        case .refuse: completion(.refused)
        }
    }

    /// The 503 a full queue answers: nothing was stored.
    public var refusal: APIError {
        APIError(
            .serviceUnavailable,
            "the server's write queue is full (at most \(limits.maxPendingRequests) requests or "
                + "\(limits.maxPendingSamples) samples wait); nothing was stored, retry after "
                + "\(limits.retryAfterSeconds) s",
            headers: [.retryAfter: "\(limits.retryAfterSeconds)"])
    }

    /// Commits the group at the front of the queue, answers every request in it, and goes on with
    /// the next group while requests wait. The chain runs on the store's completions, not in a
    /// request's task: the next commit starts the moment one ends, and a cancelled request (its
    /// client hung up) cannot stop the commit its group rides on.
    private func commitNextGroup() {
        let group = lock.withLock { queue.takeGroup() }
        let requests = group.map(\.waiter.request)
        store.insertGroup(requests) { [self] answered in
            let results: [Result<InsertOutcome, any Error>] =
                answered.count == group.count
                ? answered
                : Array(repeating: .failure(GroupCommitError.resultCount(answered.count)), count: group.count)
            let more = lock.withLock {
                counts.commits += 1
                counts.requests += group.count
                counts.samples += requests.reduce(0) { $0 + $1.samples.count }
                return queue.finishGroup() != nil
            }
            if more { commitNextGroup() }
            for (entry, result) in zip(group, results) {
                entry.waiter.completion(.committed(result))
            }
        }
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
