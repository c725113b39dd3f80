public import BackgroundCore
public import Foundation

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
    public var device: String? { driver.device }
    public var machine: SyncMachine { driver.machine }
    private var driver: SyncDriver
    private let now: @Sendable () -> Instant
    /// The IANA zone sent with every batch (`tz`, docs/protocol.md §Zones); `nil` sends none.
    public let timeZone: String?
    /// What the machine asked to tell the user, oldest first (the shell shows them).
    public private(set) var notices: [SyncMachine.Notice] = []

    /// What one `wake` did.
    public struct Report: Hashable, Sendable {
        public var uploads = 0
        public var deleted = 0
        public var quarantined = 0
        /// Gap intervals the server acknowledged (they left the phone).
        public var gapsAcknowledged = 0
        public var outcomes: [UploadOutcome] = []
        /// Samples acknowledged whose delete the store could not write yet (a full disk); they are
        /// not sent again (``SyncDriver/awaitingWrite``).
        public var awaitingWrite = 0
    }

    /// - Parameter timeZone: the zone the device is in (`TimeZone.current.identifier`), sent with each batch.
    /// - Throws: `StoreError` when the saved sync state cannot be read.
    public init(
        store: LocationStore, transport: any BatchTransport, device: String,
        configuration: SyncMachine.Configuration = .init(), seed: UInt64, timeZone: String? = nil,
        now: @escaping @Sendable () -> Instant
    ) throws(StoreError) {
        self.timeZone = timeZone
        self.store = store
        self.transport = transport
        self.driver = try SyncDriver(store: store, device: device, configuration: configuration, seed: seed)
        self.now = now
    }

    public static let maximumUploadsPerWake = 100

    /// Gives the machine a chance to upload, and performs what it decides (``SyncDriver``'s steps,
    /// with this engine's transport and clock).
    ///
    /// - Parameter backgroundTimeRemaining: `nil` in the foreground; on iOS the time
    ///   `UIApplication.backgroundTimeRemaining` reports. Reduced by each upload's duration.
    /// - Throws: `StoreError` from the store (e.g. disk full while applying an acknowledgement:
    ///   the samples then stay in the store, but the driver remembers the acknowledgement, sends
    ///   them no more and deletes them at a later wake, when the store takes the write).
    @discardableResult
    public func wake(backgroundTimeRemaining: Duration? = nil) async throws(StoreError) -> Report {
        var tally = SyncDriver.Tally()
        var gapsAcknowledged = 0
        defer { notices += tally.notices }
        var remaining = backgroundTimeRemaining
        for _ in 0..<Self.maximumUploadsPerWake {
            let store = store
            guard
                let upload = try driver.wake(
                    pending: try store.pendingCount(), backgroundTimeRemaining: remaining, store: store, at: now(),
                    gaps: { store.gapsForNextBatch() }, timeZone: timeZone, into: &tally)
            else { break }
            let started = now()
            let outcome = await transport.send(upload.request)
            let took = now() - started
            remaining = remaining.map { $0 - took }
            try driver.hear(outcome, of: upload.sent, took: took, store: store, at: now(), into: &tally)
            // Upload delays (no network, server unreachable, refused) and the acknowledged intervals.
            gapsAcknowledged += try store.noteUpload(outcome, at: now())
            guard case .acknowledged = outcome else { break }
        }
        return Report(
            uploads: tally.attempts, deleted: tally.deleted, quarantined: tally.quarantined,
            gapsAcknowledged: gapsAcknowledged, outcomes: tally.outcomes, awaitingWrite: driver.awaitingWrite.count)
    }

    /// Samples acknowledged whose delete the store could not write yet (``SyncDriver/awaitingWrite``).
    public var awaitingWrite: Set<UUID> { driver.awaitingWrite }

    /// Releases a 401/403 hold after the user signed in again.
    public func credentialsChanged() throws(StoreError) {
        var tally = SyncDriver.Tally()
        defer { notices += tally.notices }
        try driver.credentialsChanged(store: store, at: now(), into: &tally)
    }

    /// When the engine next wants a `wake`, for the shell's timer.
    public func nextWake() throws(StoreError) -> Instant? {
        driver.nextWake(pending: try store.pendingCount(), now: now())
    }
}
