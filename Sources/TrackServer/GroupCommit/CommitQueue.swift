/// The state machine of the group commit: who waits, who commits next, what the next group is.
///
/// No I/O and no locking: ``SampleCommitter`` holds it under a lock and performs its actions. At
/// most one commit runs at a time. The request that finds none running starts it (`lead`); each
/// commit takes a group from the front of the queue, and when it ends the next group, if any
/// waits, is committed at once (`finishGroup`), so the queue drains in arrival order.
struct CommitQueue<Waiter> {
    struct Entry {
        var id: UInt64
        var samples: Int
        var bytes: Int
        var waiter: Waiter
    }

    enum Admission: Equatable {
        /// Nobody is committing: this request starts the commits (it is alone in the queue).
        case lead(id: UInt64)
        /// A commit is under way: this request waits for the commit that holds it.
        case wait(id: UInt64)
        /// The queue is full: answer 503, write nothing.
        case refuse
    }

    let limits: GroupCommitLimits
    private var pending: [Entry] = []
    private var pendingSamples = 0
    private var leading = false
    private var nextID: UInt64 = 0

    init(limits: GroupCommitLimits) {
        self.limits = limits
    }

    var count: Int { pending.count }
    var isLeading: Bool { leading }

    /// Queues a request, or refuses it when the queue is at its bound. An empty queue always takes
    /// a request, however many samples it holds (the route already capped them).
    mutating func admit(samples: Int, bytes: Int, waiter: Waiter) -> Admission {
        if !pending.isEmpty
            && (pending.count >= limits.maxPendingRequests
                || pendingSamples + samples > limits.maxPendingSamples)
        {
            return .refuse
        }
        nextID &+= 1
        pending.append(Entry(id: nextID, samples: samples, bytes: bytes, waiter: waiter))
        pendingSamples += samples
        if leading { return .wait(id: nextID) }
        leading = true
        return .lead(id: nextID)
    }

    /// The leader's group: requests from the front while they fit the per-commit bounds, at least one.
    mutating func takeGroup() -> [Entry] {
        var samples = 0
        var bytes = 0
        var end = 0
        while end < pending.count {
            let entry = pending[end]
            let fits =
                samples + entry.samples <= limits.maxSamplesPerCommit && bytes + entry.bytes <= limits.maxBytesPerCommit
            if end > 0 && !fits { break }
            samples += entry.samples
            bytes += entry.bytes
            end += 1
        }
        let group = Array(pending[..<end])
        pending.removeFirst(end)
        pendingSamples -= samples
        return group
    }

    /// A group was committed: the front of the queue, whose group is committed next, or `nil`
    /// when nothing waits and the next request to arrive starts the commits again.
    mutating func finishGroup() -> Entry? {
        guard let next = pending.first else {
            leading = false
            return nil
        }
        return next
    }
}

extension CommitQueue.Entry: Sendable where Waiter: Sendable {}
