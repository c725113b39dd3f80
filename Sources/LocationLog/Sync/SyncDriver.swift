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
public struct SyncDriver: Sendable {
    public private(set) var machine: SyncMachine
    /// The device name the batches carry; `nil` sends none (the token names the device).
    public let device: String?

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
        let actions = machine.handle(.wake(pending: pending, backgroundTimeRemaining: backgroundTimeRemaining), at: now)
        try perform(actions, store: store, at: now, into: &tally)
        guard let limit = actions.uploadLimit else { return nil }
        let samples: [Sample]
        do {
            samples = try store.oldestPending(limit: limit)
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
    public func nextWake(pending: Int, now: Instant) -> Instant? {
        machine.nextWake(pending: pending, now: now)
    }

    /// The outcome the machine hears when the batch it asked for cannot be read.
    public static func unreadableBatch(_ error: some Error) -> UploadOutcome {
        .unexpectedResponse(message: "the batch could not be read: \(error)")
    }

    private func perform(
        _ actions: [SyncMachine.Action], store: LocationStore, at now: Instant, into tally: inout Tally
    )
        throws(StoreError)
    {
        let result = try store.apply(actions, at: now)
        tally.deleted += result.deleted
        tally.quarantined += result.quarantined
        tally.notices += result.notices
    }
}
