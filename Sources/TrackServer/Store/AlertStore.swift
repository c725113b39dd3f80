public import BackgroundCore

/// Alerts (`serve --alert-webhook`): per-device silence thresholds, who is silent, and an outbox
/// so a restart neither repeats nor misses an alert.
public protocol AlertStore: Sendable {
    /// Sets the device's silence threshold (`nil`: the server's default). False if unknown.
    func setSilentAfter(device: String, _ threshold: Duration?) async throws -> Bool
    /// In one transaction: marks the device silent since `silentSince` (or heard from again when
    /// `nil`) and queues one delivery per target.
    func recordAlert(device: String, silentSince: Instant?, deliveries: [AlertDelivery], at now: Instant) async throws
    /// Queued deliveries whose next attempt is due at `now`, oldest first.
    func dueAlerts(at now: Instant, limit: Int) async throws -> [QueuedAlert]
    /// A delivery succeeded: it leaves the queue.
    func alertDelivered(id: Int64) async throws
    /// A delivery failed: it stays queued until `retryAt`.
    func alertFailed(id: Int64, error: String, retryAt: Instant) async throws
}

/// One alert for one target, as queued.
public struct AlertDelivery: Hashable, Sendable {
    /// `webhook <url>` or `command <shell command>`.
    public var target: String
    public var json: String

    public init(target: String, json: String) {
        self.target = target
        self.json = json
    }
}

/// A queued delivery with its attempts so far.
public struct QueuedAlert: Hashable, Sendable {
    public var id: Int64
    public var delivery: AlertDelivery
    public var attempts: Int

    public init(id: Int64, delivery: AlertDelivery, attempts: Int) {
        self.id = id
        self.delivery = delivery
        self.attempts = attempts
    }
}
