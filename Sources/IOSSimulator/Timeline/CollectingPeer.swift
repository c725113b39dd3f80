public import BackgroundCore
import Foundation
public import LocationLog

/// A server stand-in that keeps every sample it acknowledges: the samples a real server would
/// hold after the phone's real store and sync delivered them. Heartbeats always succeed unless
/// the scenario revoked the session.
public final class CollectingPeer: SimulatedNetworkPeer, @unchecked Sendable {
    // Guarded by `lock`: the simulation calls from its own thread, the caller reads afterwards.
    private let lock = NSLock()
    private var received: [UUID: Sample] = [:]
    private var revoked = false

    public init() {}

    /// The samples received so far, in time order.
    public var samples: [Sample] {
        lock.withLock { received.values.sorted { ($0.time, $0.seq) < ($1.time, $1.seq) } }
    }

    public func upload(_ batch: [Sample], at now: Instant) -> UploadOutcome {
        lock.withLock {
            if revoked { return .unauthorized(status: 401, message: "device token revoked") }
            var acknowledgement = BatchAcknowledgement()
            for sample in batch {
                do {
                    try sample.check(receivedAt: now)
                    received[sample.id] = sample
                    acknowledgement.stored.insert(sample.id)
                } catch {
                    acknowledgement.rejected[sample.id] = "\(error)"
                }
            }
            return .acknowledged(acknowledgement)
        }
    }

    public func heartbeat(at now: Instant) -> HeartbeatMachine.Response {
        lock.withLock { revoked ? .rejected(status: 401) : .active(expiresAt: now + .seconds(3600)) }
    }

    public func revokeSession(at now: Instant) { lock.withLock { revoked = true } }
    public func renewSession(at now: Instant) { lock.withLock { revoked = false } }
    public func uploadFailedOffline(at now: Instant) {}
    public var acknowledgedSampleCount: Int { lock.withLock { received.count } }
    public func advance(to now: Instant) {}
}
