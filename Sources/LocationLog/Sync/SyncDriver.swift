public import BackgroundCore
public import Foundation

/// The steps every shell repeats around ``SyncMachine``, written once: give the machine a wake,
/// carry out what it decides, read the batch it asks for (or tell it the attempt ended when the
/// batch cannot be read), build the request, apply the answer, and count what happened.
///
/// The shell keeps only what is its own: the transport (URLSession on the Linux device, a
/// background session on iOS, the simulated network in the simulator) and the clock, passed to
/// each step as `now`. The driver performs no network I/O and never reads a clock.
///
/// ```swift
/// var driver = try SyncDriver(store: store, device: "iphone-42", seed: 7)
/// var tally = SyncDriver.Tally()
/// if let upload = try driver.wake(pending: try store.pendingCount(), store: store, at: now, into: &tally) {
///     let outcome = await transport.send(upload.request)
///     try driver.hear(outcome, of: upload.sent, took: .seconds(1), store: store, at: now, into: &tally)
/// }
/// ```
///
/// An acknowledgement the store cannot write (a full disk refuses even a delete) is remembered
/// here: its samples count as sent, no batch carries them again, and every wake writes it again
/// until the store takes it. It lives in memory, as nothing can be written meanwhile: after a kill
/// those samples are sent once more and the server answers them as duplicates
/// (docs/protocol.md §Acknowledgement), which is safe; what must not happen is the same batch
/// uploaded at every wake.
public struct SyncDriver: Sendable {
    public private(set) var machine: SyncMachine
    /// The device name the batches carry; `nil` sends none (the token names the device).
    public let device: String?
    /// Acknowledged samples whose delete the store could not write yet, and the rejected ones
    /// whose move to quarantine it could not write (id → the server's reason).
    public private(set) var unwrittenDeletes: Set<UUID> = []
    public private(set) var unwrittenQuarantine: [UUID: String] = [:]

    /// The samples the server answered whose answer is not written yet: never sent again.
    public var awaitingWrite: Set<UUID> { unwrittenDeletes.union(unwrittenQuarantine.keys) }
    /// Whether the store refused the waiting acknowledgement at least once (so its writing is logged).
    private var wasRefused = false

    public init(machine: SyncMachine, device: String?) {
        self.machine = machine
        self.device = device
    }

    /// A driver whose machine resumes from the sync state `store` saved.
    /// - Throws: `StoreError` when the saved sync state cannot be read.
    public init(
        store: LocationStore, device: String?, configuration: SyncMachine.Configuration = .init(), seed: UInt64
    ) throws(StoreError) {
        self.init(
            machine: SyncMachine(configuration: configuration, snapshot: try store.syncSnapshot(), seed: seed),
            device: device)
    }

    /// One wake of the machine: carries out its store actions and, when it wants to upload, reads
    /// the batch and returns it, ready to send. The shell sends it and calls
    /// ``hear(_:of:took:store:at:into:)`` with the answer (now, or at a later launch).
    ///
    /// An empty batch (only unreadable rows left) is acknowledged at once, as nothing to send.
    /// - Parameters:
    ///   - pending: the number of pending samples (the shell may keep it alongside the store).
    ///   - backgroundTimeRemaining: `nil` in the foreground or when the upload needs no app time.
    ///   - gaps: the gap intervals to send with the batch (read only when there is a batch).
    ///   - timeZone: the IANA zone the phone is in now (`TimeZone.current.identifier`), sent with
    ///     the batch so the server reads its days in the user's zone (docs/protocol.md §Zones).
    /// - Throws: `StoreError` when the store cannot carry out the actions or read the batch; the
    ///   machine has then heard that the attempt ended (else it would wait for that answer for good).
    public mutating func wake(
        pending: Int, backgroundTimeRemaining: Duration? = nil, store: LocationStore, at now: Instant,
        gaps: () -> [WireGap] = { [] }, timeZone: String? = nil, into tally: inout Tally
    ) throws(StoreError) -> Upload? {
        _ = writeAcknowledgement(store: store, at: now, into: &tally)
        let awaiting = awaitingWrite
        let actions = machine.handle(
            .wake(pending: max(0, pending - awaiting.count), backgroundTimeRemaining: backgroundTimeRemaining), at: now)
        try perform(actions, store: store, at: now, into: &tally)
        guard let limit = actions.uploadLimit else { return nil }
        let samples: [Sample]
        do {
            samples = try store.oldestPending(limit: limit, excluding: awaiting)
        } catch {
            try? hear(Self.unreadableBatch(error), of: [], took: .zero, store: store, at: now, into: &tally)
            throw error
        }
        guard !samples.isEmpty else {
            try hear(.acknowledged(BatchAcknowledgement()), of: [], took: .zero, store: store, at: now, into: &tally)
            return nil
        }
        return Upload(samples: samples, gaps: gaps(), device: device, timeZone: timeZone)
    }

    /// How an upload of the samples `sent` ended: the machine decides, the store carries it out
    /// (exactly the acknowledged samples leave it), and the tally counts it.
    /// - Throws: `StoreError` when the store cannot carry it out (the samples then stay pending).
    public mutating func hear(
        _ outcome: UploadOutcome, of sent: Set<UUID>, took: Duration, store: LocationStore, at now: Instant,
        into tally: inout Tally
    ) throws(StoreError) {
        tally.outcomes.append(outcome)
        if !sent.isEmpty {
            tally.attempts += 1
            if case .acknowledged = outcome { tally.acknowledged += 1 }
        }
        try perform(
            machine.handle(.uploaded(sent: sent, outcome: outcome, took: took), at: now), store: store, at: now,
            into: &tally)
    }

    /// Releases a 401/403 hold after the user signed in again.
    public mutating func credentialsChanged(store: LocationStore, at now: Instant, into tally: inout Tally)
        throws(StoreError)
    {
        try perform(machine.handle(.credentialsChanged, at: now), store: store, at: now, into: &tally)
    }

    /// When the machine next wants a wake, for the shell's timer (see ``SyncMachine/nextWake(pending:now:)``).
    /// Samples awaiting the write of their acknowledgement are not pending for it (they are not
    /// sent again), but the write is tried again within ``acknowledgementRetry``.
    public func nextWake(pending: Int, now: Instant) -> Instant? {
        let wake = machine.nextWake(pending: max(0, pending - awaitingWrite.count), now: now)
        guard !awaitingWrite.isEmpty else { return wake }
        return min(wake ?? now + Self.acknowledgementRetry, now + Self.acknowledgementRetry)
    }

    /// How soon an acknowledgement the store refused (a full disk) is written again, at the
    /// latest: when it goes through, space is back and sampling can resume.
    public static let acknowledgementRetry: Duration = .seconds(300)

    /// The outcome the machine hears when the batch it asked for cannot be read.
    public static func unreadableBatch(_ error: some Error) -> UploadOutcome {
        .unexpectedResponse(message: "the batch could not be read: \(error)")
    }

    /// Carries out the machine's actions. An acknowledgement joins what is waiting to be written
    /// and is written with it; when the store refuses it, it stays remembered (never sent again),
    /// the other actions are still carried out, and the store's error is thrown afterwards.
    private mutating func perform(
        _ actions: [SyncMachine.Action], store: LocationStore, at now: Instant, into tally: inout Tally
    )
        throws(StoreError)
    {
        var others: [SyncMachine.Action] = []
        var acknowledged = false
        for action in actions {
            guard case .acknowledge(let delete, let quarantine) = action else {
                others.append(action)
                continue
            }
            acknowledged = true
            unwrittenDeletes.formUnion(delete)
            unwrittenQuarantine.merge(quarantine) { _, new in new }
        }
        let refused = acknowledged ? writeAcknowledgement(store: store, at: now, into: &tally) : nil
        let result = try store.apply(others, at: now)
        tally.deleted += result.deleted
        tally.quarantined += result.quarantined
        tally.notices += result.notices
        if let refused { throw refused }
    }

    /// Writes the acknowledgements waiting to be written; returns the store's error when it
    /// refuses them (they then stay remembered, and the tally counts them).
    private mutating func writeAcknowledgement(store: LocationStore, at now: Instant, into tally: inout Tally)
        -> StoreError?
    {
        let waiting = awaitingWrite.count
        guard waiting > 0 else { return nil }
        do {
            let (deleted, quarantined) = try store.acknowledge(
                deleting: unwrittenDeletes, quarantining: unwrittenQuarantine, at: now)
            tally.deleted += deleted
            tally.quarantined += quarantined
            if wasRefused {
                try? store.log(.info, "the server's answer for \(waiting) samples is written at last", at: now)
            }
            unwrittenDeletes = []
            unwrittenQuarantine = [:]
            wasRefused = false
            tally.awaitingWrite = 0
            return nil
        } catch {
            tally.awaitingWrite = waiting
            if !wasRefused {
                // Best effort: a full disk refuses the diagnostic too.
                try? store.log(
                    .error,
                    "the server acknowledged \(waiting) samples but the store could not delete them (\(error)); "
                        + "they are not sent again, and the delete is tried at every wake", at: now)
            }
            wasRefused = true
            return error
        }
    }
}
