public import BackgroundCore
import Foundation

/// Runs the sync machine against a store and a transport: the shell around `SyncMachine`.
///
/// Time comes from the injected `now` closure (a virtual clock in tests and the simulator, the
/// wall clock on a device); the engine never sleeps. Each `wake` performs at most
/// `maximumUploadsPerWake` uploads, so a large backlog drains batch by batch while time lasts.
///
/// ```swift
/// let engine = SyncEngine(store: store, transport: transport, device: "iphone-42", seed: 7, now: clock.now)
/// let report = await engine.wake(backgroundTimeRemaining: nil)
/// ```
public actor SyncEngine {
    public let store: LocationStore
    public let transport: any BatchTransport
    public let device: String
    public private(set) var machine: SyncMachine
    private let now: @Sendable () -> Instant
    /// Notifications the machine asked for, oldest first (the shell shows them).
    public private(set) var notifications: [String] = []

    /// What one `wake` did.
    public struct Report: Hashable, Sendable {
        public var uploads = 0
        public var deleted = 0
        public var quarantined = 0
        /// Gap intervals the server acknowledged (they left the phone).
        public var gapsAcknowledged = 0
        public var outcomes: [UploadOutcome] = []
    }

    /// - Throws: `StoreError` when the saved sync state cannot be read.
    public init(
        store: LocationStore, transport: any BatchTransport, device: String,
        configuration: SyncMachine.Configuration = .init(), seed: UInt64,
        now: @escaping @Sendable () -> Instant
    ) throws(StoreError) {
        self.store = store
        self.transport = transport
        self.device = device
        self.machine = SyncMachine(configuration: configuration, snapshot: try store.syncSnapshot(), seed: seed)
        self.now = now
    }

    public static let maximumUploadsPerWake = 100

    /// Gives the machine a chance to upload, and performs what it decides.
    ///
    /// - Parameter backgroundTimeRemaining: `nil` in the foreground; on iOS the time
    ///   `UIApplication.backgroundTimeRemaining` reports. Reduced by each upload's duration.
    /// - Throws: `StoreError` from the store (e.g. disk full while applying an acknowledgement;
    ///   the samples are then still pending and are sent again).
    @discardableResult
    public func wake(backgroundTimeRemaining: Duration? = nil) async throws(StoreError) -> Report {
        var report = Report()
        var remaining = backgroundTimeRemaining
        for _ in 0..<Self.maximumUploadsPerWake {
            let pending = try store.pendingCount()
            let actions = machine.handle(.wake(pending: pending, backgroundTimeRemaining: remaining), at: now())
            try perform(actions, into: &report)
            guard let limit = actions.uploadLimit else { break }
            let batch: [Sample]
            do {
                batch = try store.oldestPending(limit: limit)
            } catch {
                // The machine believes an upload is in flight until it hears how it ended; without
                // this it would wait for that answer, and never upload again, for good.
                let ended = machine.handle(
                    .uploaded(
                        sent: [], outcome: .unexpectedResponse(message: "the batch could not be read: \(error)"),
                        took: .zero),
                    at: now())
                try? perform(ended, into: &report)
                throw error
            }
            let started = now()
            let outcome: UploadOutcome
            if batch.isEmpty {
                outcome = .acknowledged(BatchAcknowledgement())
            } else {
                let id = BatchRequest.batchID(for: batch.map(\.id))
                outcome = await transport.send(
                    BatchRequest(
                        batch: id.wireString, device: device, samples: batch.map(WireSample.init),
                        gaps: store.gapsForNextBatch()))
            }
            let took = now() - started
            remaining = remaining.map { $0 - took }
            report.uploads += batch.isEmpty ? 0 : 1
            report.outcomes.append(outcome)
            let sent = Set(batch.map(\.id))
            try perform(machine.handle(.uploaded(sent: sent, outcome: outcome, took: took), at: now()), into: &report)
            if case .acknowledged(let ack) = outcome { report.gapsAcknowledged += try store.acknowledgeGaps(ack.gaps) }
            // An empty batch (only unreadable rows left) would read the same nothing again.
            guard case .acknowledged = outcome, !batch.isEmpty else { break }
        }
        return report
    }

    /// Releases a 401/403 hold after the user signed in again.
    public func credentialsChanged() throws(StoreError) {
        var report = Report()
        try perform(machine.handle(.credentialsChanged, at: now()), into: &report)
    }

    /// When the engine next wants a `wake`, for the shell's timer.
    public func nextWake() throws(StoreError) -> Instant? {
        machine.nextWake(pending: try store.pendingCount(), now: now())
    }

    private func perform(_ actions: [SyncMachine.Action], into report: inout Report) throws(StoreError) {
        let result = try store.apply(actions, at: now())
        report.deleted += result.deleted
        report.quarantined += result.quarantined
        notifications += result.notifications
    }
}
