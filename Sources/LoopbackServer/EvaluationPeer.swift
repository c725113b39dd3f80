import BackgroundCore
import Foundation
import IOSSimulator
import LinuxDevice
import LocationLog
import TrackGeometry
import TrackServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One evaluation run's phone network: real HTTP to the ``EvaluationServer`` on loopback, the
/// native protocol's batches (with the phone's gap intervals) through the same transport
/// `bgtrack device` uses, sessions and heartbeats through the server's session routes.
///
/// The simulation calls it synchronously from its own thread; each call blocks that thread until
/// the real request has been answered, so the simulated world stands still meanwhile.
final class EvaluationPeer: SimulatedNetworkPeer, @unchecked Sendable {
    private let server: URL
    private let device: String
    private let token: String
    private let clock: SimulatedTime
    private let store: SQLiteTrackStore
    private let session: URLSession
    private let client: SessionClient
    // Guarded by `lock`.
    private let lock = NSLock()
    private var acknowledged: Set<UUID> = []
    private var sessionToken: String?

    init(server: URL, device: String, token: String, clock: SimulatedTime, store: SQLiteTrackStore) {
        self.server = server
        self.device = device
        self.token = token
        self.clock = clock
        self.store = store
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
        client = SessionClient(base: server, session: session)
    }

    var acknowledgedSampleCount: Int { lock.withLock { acknowledged.count } }

    func advance(to now: Instant) { clock.set(now) }

    func upload(_ batch: [Sample], at now: Instant) -> UploadOutcome { upload(batch, gaps: [], at: now) }

    func upload(_ batch: [Sample], gaps: [WireGap], at now: Instant) -> UploadOutcome {
        let transport = URLSessionBatchTransport(
            server: server, token: token, gzip: true, timeout: .seconds(30), session: session)
        let request = BatchRequest(
            batch: UUID().wireString, device: device, samples: batch.map(WireSample.init), gaps: gaps)
        let outcome = blocking { await transport.send(request) }
        if case .acknowledged(let acknowledgement) = outcome {
            lock.withLock { acknowledged.formUnion(acknowledgement.stored.intersection(batch.map(\.id))) }
        }
        return outcome
    }

    func uploadFailedOffline(at now: Instant) {}

    func heartbeat(at now: Instant) -> HostedAnswer {
        if lock.withLock({ sessionToken }) == nil {
            guard let opened = client.logIn(device: device, token: token) else { return .loginFailed }
            lock.withLock { sessionToken = opened }
        }
        return HostedAnswer(client.heartbeat(sessionToken: lock.withLock { sessionToken } ?? ""))
    }

    func revokeSession(at now: Instant) {
        guard let current = lock.withLock({ sessionToken }) else { return }
        let store = self.store
        blocking { try? await store.revokeSession(tokenHash: Tokens.hash(current), at: now) }
    }

    func renewSession(at now: Instant) { lock.withLock { sessionToken = nil } }

    /// `GET /v1/devices/{id}/timeline?from&to` with the device's token: the entries the server's
    /// incremental timeline holds, closed ones first, the open one last.
    func timeline(from: Instant, to: Instant) throws -> [TimelineEntry] {
        try client.timeline(device: device, token: token, from: from, to: to)
    }
}
