/// The bounds of the ingest write pipeline (``SampleCommitter``).
///
/// One commit takes every request waiting when it starts, up to `maxSamplesPerCommit` samples and
/// `maxBytesPerCommit` body bytes (always at least one request, however large). There is no added
/// delay: a group is what arrived while the previous commit was being written and synced, so an
/// idle server commits a lone request at once. The queue holds at most `maxPendingRequests`
/// requests and `maxPendingSamples` samples; beyond that a request is answered 503 with
/// `Retry-After: retryAfterSeconds` and writes nothing, instead of growing a backlog.
public struct GroupCommitLimits: Sendable, Hashable {
    /// Off: every request commits its own transaction (the baseline the pipeline replaces).
    public var enabled = true
    public var maxSamplesPerCommit = 10_000
    public var maxBytesPerCommit = 8 << 20
    public var maxPendingRequests = 4_096
    public var maxPendingSamples = 200_000
    public var retryAfterSeconds = 1

    public init() {}
}
