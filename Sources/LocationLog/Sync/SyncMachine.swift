public import BackgroundCore
public import Foundation

/// Decides when to upload and what to do with the answer; performs no I/O.
///
/// The shell feeds it `wake` whenever the app is awake (with the pending count and the
/// background time left) and `uploaded` when an attempt ends; it performs the returned actions
/// in order. Rules (docs/protocol.md §Acknowledgement and issue 4):
/// - upload when `uploadInterval` has passed since the last success, or the backlog reaches a
///   batch, and never with less background time left than an upload needs;
/// - on `200` delete exactly `accepted` + `duplicates` of the ids that were sent, quarantine
///   `rejected`; samples stored meanwhile are untouched; an id both stored and rejected stays
///   pending; a `200` naming none of the ids sent is a failure, not a success;
/// - network errors, `429`, `5xx` (and `400`/other `4xx`, which never delete) back off
///   exponentially from 5 s to 30 min with jitter from an injected seed;
/// - `413` halves the batch that was sent; `401`/`403` hold all uploads and notify the user.
///
/// ```swift
/// var sync = SyncMachine(snapshot: try store.syncSnapshot(), seed: 42)
/// for action in sync.handle(.wake(pending: 12, backgroundTimeRemaining: nil), at: now) { … }
/// ```
public struct SyncMachine: Sendable {
    public enum Event: Hashable, Sendable {
        /// The app is awake; `backgroundTimeRemaining` is `nil` in the foreground (no limit).
        case wake(pending: Int, backgroundTimeRemaining: Duration?)
        /// An upload of the samples `sent` ended after `took`.
        case uploaded(sent: Set<UUID>, outcome: UploadOutcome, took: Duration)
        /// The user signed in again or the token was replaced: release a hold.
        case credentialsChanged
    }

    public enum Action: Hashable, Sendable {
        /// Read the oldest `limit` pending samples and send them as one batch; report `.uploaded`.
        case upload(limit: Int)
        /// Delete exactly `delete` and move `quarantine` (id → server's reason) aside, in one transaction.
        case acknowledge(delete: Set<UUID>, quarantine: [UUID: String])
        /// Persist the sync state.
        case save(SyncSnapshot)
        /// Tell the user (the shell posts `notice.userNotice`).
        case notifyUser(Notice)
        /// Write to the diagnostics log.
        case log(Diagnostic.Level, String)
    }

    public let configuration: Configuration
    public private(set) var snapshot: SyncSnapshot
    private var state = State.idle
    /// How long the last upload took; an upload is assumed to need twice that.
    private var lastUploadDuration: Duration = .zero
    private var random: SeededRandom

    /// Between uploads, or waiting for one's answer.
    private enum State: Hashable, Sendable {
        /// No upload in flight.
        case idle
        /// No upload in flight, and the last wake was deferred for lack of background time (so a
        /// deferral is logged once, not on every wake).
        case deferred
        /// An upload began at `since`; the machine waits for `.uploaded`.
        case uploading(since: Instant)
    }

    /// Whether an upload is in flight (the machine waits for its `.uploaded`).
    public var isUploading: Bool {
        if case .uploading = state { return true }
        return false
    }

    /// - Parameters:
    ///   - snapshot: the state saved by the last run (`LocationStore.syncSnapshot()`).
    ///   - seed: seeds the back-off jitter; give a fixed one in tests, a random one on devices.
    public init(configuration: Configuration = .init(), snapshot: SyncSnapshot = .init(), seed: UInt64) {
        self.configuration = configuration
        self.snapshot = snapshot
        self.random = SeededRandom(seed: seed)
    }

    /// The batch size in use: the configured one, or less after a 413.
    public var batchSize: Int { max(1, min(snapshot.batchSize ?? configuration.batchSize, configuration.batchSize)) }

    /// The background time an upload is assumed to need.
    public var uploadTimeNeeded: Duration { max(configuration.minimumUploadTime, lastUploadDuration * 2) }

    /// When the machine next wants a `wake` given the backlog (the shell schedules a timer), or
    /// `nil` when it waits for something else (nothing pending, held, or an upload in flight).
    public func nextWake(pending: Int, now: Instant) -> Instant? {
        guard pending > 0, !isUploading, snapshot.heldReason == nil else { return nil }
        var next = now
        if pending < batchSize, let last = snapshot.lastSuccess, last <= now {
            next = max(next, last + configuration.uploadInterval)
        }
        if let retryAt = snapshot.retryAt, retryAt - now <= configuration.maximumBackoff {
            next = max(next, retryAt)
        }
        return next
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Action] {
        switch event {
        case .wake(let pending, let remaining):
            return wake(pending: pending, remaining: remaining, at: now)
        case .uploaded(let sent, let outcome, let took):
            if isUploading { state = .idle }
            lastUploadDuration = took
            return finished(sent: sent, outcome: outcome, at: now)
        case .credentialsChanged:
            guard snapshot.heldReason != nil || snapshot.retryAt != nil else { return [] }
            snapshot.heldReason = nil
            snapshot.retryAt = nil
            snapshot.consecutiveFailures = 0
            return [.save(snapshot), .log(.info, "credentials changed; uploads resume")]
        }
    }

    private mutating func wake(pending: Int, remaining: Duration?, at now: Instant) -> [Action] {
        guard !isUploading, snapshot.heldReason == nil, pending > 0 else { return [] }
        // A retry time or last success in the future means the clock was set back (the user
        // changed it, or a restarted device clock): trust neither beyond the longest back-off.
        if let retryAt = snapshot.retryAt, now < retryAt, retryAt - now <= configuration.maximumBackoff { return [] }
        let intervalPassed =
            snapshot.lastSuccess.map { now - $0 >= configuration.uploadInterval || now < $0 } ?? true
        guard intervalPassed || pending >= batchSize else { return [] }
        if let remaining, remaining < uploadTimeNeeded {
            defer { state = .deferred }
            return state == .deferred
                ? []
                : [
                    .log(
                        .info,
                        "upload of \(pending) samples deferred: \(Int(remaining.seconds)) s of background time "
                            + "left, an upload needs \(Int(uploadTimeNeeded.seconds)) s")
                ]
        }
        state = .uploading(since: now)
        return [.upload(limit: batchSize)]
    }

    private mutating func finished(sent: Set<UUID>, outcome: UploadOutcome, at now: Instant) -> [Action] {
        switch outcome {
        case .acknowledged(let ack):
            // An id the answer both stores and rejects is no clear acknowledgement: keep it pending
            // (deleting could lose a sample the server refused; a re-send resolves it, as a duplicate
            // or a rejection).
            let contradicted = ack.stored.intersection(ack.rejected.keys).intersection(sent)
            let delete = ack.stored.intersection(sent).subtracting(contradicted)
            let quarantine = ack.rejected.filter { sent.contains($0.key) && !contradicted.contains($0.key) }
            let unknown = ack.stored.union(ack.rejected.keys).subtracting(sent).count
            guard sent.isEmpty || !delete.isEmpty || !quarantine.isEmpty else {
                // A `200` naming none of the samples sent made no progress (an error body read
                // leniently, empty arrays, another batch's ids). Counting it as a success would
                // reset the back-off and, with a batch-sized backlog, re-send the same batch at once.
                return backOff(
                    after: .unexpectedResponse(
                        message: "HTTP 200 acknowledged none of the \(sent.count) samples sent"
                            + (unknown > 0 ? " (it named \(unknown) ids not in the batch)" : "")),
                    atLeast: nil, at: now)
            }
            snapshot.lastSuccess = now
            snapshot.consecutiveFailures = 0
            snapshot.retryAt = nil
            if let size = snapshot.batchSize {
                // Grow back towards the configured size after a 413 shrank it.
                snapshot.batchSize = size * 2 >= configuration.batchSize ? nil : size * 2
            }
            var actions: [Action] = [.acknowledge(delete: delete, quarantine: quarantine), .save(snapshot)]
            let unanswered = sent.count - delete.count - quarantine.count - contradicted.count
            var line = "uploaded \(sent.count) samples: \(delete.count) stored, \(quarantine.count) rejected"
            if unanswered > 0 { line += ", \(unanswered) not mentioned (kept, sent again next time)" }
            if !contradicted.isEmpty {
                line += ", \(contradicted.count) both stored and rejected (kept, sent again next time)"
            }
            if unknown > 0 { line += ", \(unknown) ids not in the batch ignored" }
            actions.append(.log(.info, line))
            for (id, reason) in quarantine.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
                actions.append(.log(.warning, "sample \(id.wireString) quarantined: the server rejected it: \(reason)"))
            }
            return actions
        case .tooLarge where min(batchSize, sent.count) > 1:
            // Halve what was sent: a backlog smaller than the batch size would otherwise go out
            // unchanged until the size had halved below it.
            snapshot.batchSize = min(batchSize, sent.count) / 2
            return [
                .save(snapshot),
                .log(.warning, "server answered 413 (batch too large); batch size halved to \(batchSize)"),
            ]
        case .unauthorized(let status, let message):
            snapshot.heldReason = "the server refused the device token (HTTP \(status): \(message))"
            return [
                .save(snapshot),
                .log(.error, "uploads held: \(snapshot.heldReason ?? "")"),
                .notifyUser(.tokenRefused(status: status)),
            ]
        case .rateLimited(let retryAfter):
            return backOff(after: outcome, atLeast: retryAfter, at: now)
        case .tooLarge, .badRequest, .serverError, .clientError, .unexpectedResponse, .networkError, .noNetwork:
            return backOff(after: outcome, atLeast: nil, at: now)
        }
    }

    private mutating func backOff(after outcome: UploadOutcome, atLeast floor: Duration?, at now: Instant) -> [Action] {
        // Saturating: the exponent is capped long before, and `+=` would trap at Int.max.
        snapshot.consecutiveFailures = min(snapshot.consecutiveFailures, Int.max - 1) + 1
        var delay = jitteredBackoff(failures: snapshot.consecutiveFailures)
        if let floor { delay = min(max(delay, floor), configuration.maximumBackoff) }
        snapshot.retryAt = now + delay
        return [
            .save(snapshot),
            .log(
                .warning,
                "upload failed (\(outcome.summary)); samples kept; retry \(snapshot.consecutiveFailures) in "
                    + "\(Double(delay.wholeMilliseconds) / 1000) s"),
        ]
    }

    /// The un-jittered delay after `failures` consecutive failures: 5 s, 10 s, 20 s … capped at 30 min.
    public func nominalBackoff(failures: Int) -> Duration {
        let base = configuration.initialBackoff.wholeMilliseconds
        let cap = configuration.maximumBackoff.wholeMilliseconds
        let exponent = min(max(failures - 1, 0), 40)
        let (value, overflow) = base.multipliedReportingOverflow(by: Int64(1) << exponent)
        return .milliseconds(overflow ? cap : min(value, cap))
    }

    /// "Equal jitter": uniformly between half the nominal delay and the nominal delay, so clients
    /// that failed together spread out while each still waits at least half the nominal time.
    private mutating func jitteredBackoff(failures: Int) -> Duration {
        let nominal = nominalBackoff(failures: failures).wholeMilliseconds
        let half = nominal / 2
        return .milliseconds(half + Int64.random(in: 0...(nominal - half), using: &random))
    }
}
