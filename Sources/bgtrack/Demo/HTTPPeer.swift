import BackgroundCore
import Foundation
import IOSSimulator
import LinuxDevice
import LocationLog
import LoopbackServer
import TrackServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The simulated phone's network in `bgtrack demo`: real HTTP to a real server on loopback.
///
/// The simulation calls it synchronously from its own thread; each call blocks that thread until
/// the real request has been answered, so the simulated world stands still meanwhile. It also
/// plays the server's part of the day: it stops the server for a while (a restart) and revokes
/// the phone's session, both at simulated times.
final class HTTPPeer: SimulatedNetworkPeer, @unchecked Sendable {
    struct Plan {
        var device: String
        var deviceToken: String
        var serverRestart: (at: Instant, downFor: Duration)?
        var progress: @Sendable (Instant) -> Void
        /// The IANA zone the simulated phone is in, sent with every batch (`tz`).
        var timeZone: String? = nil
    }

    /// What the peer counted; read after the run.
    struct Tally: Sendable {
        var uploadAttempts = 0
        var uploadsAcknowledged = 0
        var failedUploads: [String: Int] = [:]
        var sentIDs: Set<UUID> = []
        var acknowledgedIDs: Set<UUID> = []
        var heartbeats = 0
        var heartbeatsRejected = 0
        var logins = 0
        var serverRestarts = 0
        var sessionsRevoked = 0
        /// Gap intervals the server acknowledged (stored or already stored).
        var gapsAcknowledged = 0
    }

    private let lock = NSLock()
    private let plan: Plan
    private let server: DemoServer
    private let clock: DemoClock
    private let store: any TrackStore
    private let session: URLSession
    private var sessionToken: String?
    private var tally = Tally()
    private var lastProgress: Instant?
    private var restartDone = false

    init(plan: Plan, server: DemoServer, clock: DemoClock, store: any TrackStore) {
        self.plan = plan
        self.server = server
        self.clock = clock
        self.store = store
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
    }

    var result: Tally { lock.withLock { tally } }
    var acknowledgedSampleCount: Int { lock.withLock { tally.acknowledgedIDs.count } }
    private var base: URL {
        URL(string: "http://127.0.0.1:\(server.port)") ?? URL(fileURLWithPath: "/")
    }
    /// The session routes at the server's port (the same after a restart).
    private var client: SessionClient { SessionClient(base: base, session: session) }

    func advance(to now: Instant) {
        clock.set(now)
        if let restart = plan.serverRestart {
            if !restartDone, now >= restart.at, server.isRunning {
                blocking { await self.server.stop() }
            } else if !restartDone, now >= restart.at + restart.downFor, !server.isRunning {
                // Same port, same database file: what a restarted `bgtrack serve` would see.
                let started = blocking { () -> Bool in (try? await self.server.start()) != nil }
                lock.withLock {
                    restartDone = started
                    if started { tally.serverRestarts += 1 }
                }
            }
        }
        let report = lock.withLock { () -> Bool in
            guard let last = lastProgress, now - last < .seconds(600) else {
                lastProgress = now
                return true
            }
            return false
        }
        if report { plan.progress(now) }
    }

    func upload(_ batch: [Sample], at now: Instant) -> UploadOutcome {
        upload(batch, gaps: [], at: now)
    }

    func upload(_ batch: [Sample], gaps: [WireGap], at now: Instant) -> UploadOutcome {
        let transport = URLSessionBatchTransport(
            server: base, token: plan.deviceToken, gzip: true, timeout: .seconds(10), session: session)
        let request = BatchRequest(
            batch: UUID().wireString, device: plan.device, samples: batch.map(WireSample.init), gaps: gaps,
            timeZone: plan.timeZone)
        let outcome = blocking { await transport.send(request) }
        lock.withLock {
            tally.uploadAttempts += 1
            tally.sentIDs.formUnion(batch.map(\.id))
            if case .acknowledged(let ack) = outcome {
                tally.uploadsAcknowledged += 1
                tally.acknowledgedIDs.formUnion(ack.stored.intersection(batch.map(\.id)))
                tally.gapsAcknowledged += ack.gaps.count
            } else {
                tally.failedUploads[Self.kind(outcome), default: 0] += 1
            }
        }
        return outcome
    }

    func uploadFailedOffline(at now: Instant) {
        lock.withLock { tally.failedUploads["no network (outage)", default: 0] += 1 }
    }

    func heartbeat(at now: Instant) -> HostedAnswer {
        if lock.withLock({ sessionToken }) == nil {
            guard let token = logIn() else { return .loginFailed }
            lock.withLock { sessionToken = token }
        }
        let answer = HostedAnswer(client.heartbeat(sessionToken: lock.withLock { sessionToken } ?? ""))
        let status = answer.status
        lock.withLock {
            tally.heartbeats += 1
            if status == 401 || status == 403 { tally.heartbeatsRejected += 1 }
        }
        return answer
    }

    func revokeSession(at now: Instant) {
        guard let token = lock.withLock({ sessionToken }) else { return }
        let store = self.store
        blocking { try? await store.revokeSession(tokenHash: Tokens.hash(token), at: now) }
        lock.withLock { tally.sessionsRevoked += 1 }
    }

    func renewSession(at now: Instant) {
        lock.withLock { sessionToken = nil }
    }

    /// `POST /v1/sessions` with the device's own token; the new session token, or nil.
    private func logIn() -> String? {
        guard let token = client.logIn(device: plan.device, token: plan.deviceToken) else { return nil }
        lock.withLock { tally.logins += 1 }
        return token
    }

    static func kind(_ outcome: UploadOutcome) -> String {
        switch outcome {
        case .acknowledged: "acknowledged"
        case .badRequest: "400"
        case .tooLarge: "413"
        case .unauthorized(let status, _): "\(status)"
        case .rateLimited: "429"
        case .serverError(let status, _): "\(status)"
        case .clientError(let status, _): "\(status)"
        case .unexpectedResponse: "unexpected response"
        case .networkError: "connection refused or lost"
        case .noNetwork: "no network"
        }
    }
}
