public import BackgroundCore
import Foundation
public import LocationLog

/// A transport that answers from a script, records every request, and can run a hook while the
/// request is "in flight" (to store a sample meanwhile, or advance virtual time).
public actor ScriptedTransport: BatchTransport {
    public typealias Responder = @Sendable (BatchRequest) async -> UploadOutcome
    private var script: [Responder]
    private let fallback: Responder
    public private(set) var requests: [BatchRequest] = []

    /// - Parameters:
    ///   - script: answers for the first requests, in order.
    ///   - fallback: the answer once the script is used up (default: accept everything).
    public init(_ script: [Responder] = [], fallback: @escaping Responder = ScriptedTransport.acceptAll) {
        self.script = script
        self.fallback = fallback
    }

    public func send(_ request: BatchRequest) async -> UploadOutcome {
        requests.append(request)
        let responder = script.isEmpty ? fallback : script.removeFirst()
        return await responder(request)
    }

    /// Accepts every sample of the batch.
    public static let acceptAll: Responder = { request in
        .acknowledged(BatchAcknowledgement(stored: Set(request.samples.compactMap { UUID(uuidString: $0.id) })))
    }

    /// Always answers `outcome`.
    public static func always(_ outcome: UploadOutcome) -> Responder { { _ in outcome } }
}

/// An in-memory model of the server's `POST /v1/batches`: stores each sample id once, answers
/// ids it already has as duplicates, refuses what the real server refuses (the same sample rules,
/// `Sample.check(receivedAt:)`, on the clock it is given), and can lose its answer (the server
/// committed but the phone saw a network error) to exercise re-sends.
public actor InMemoryBatchServer: BatchTransport {
    public private(set) var stored: [String: WireSample] = [:]
    /// How many times each id arrived (re-sends included).
    public private(set) var receipts: [String: Int] = [:]
    public private(set) var batches = 0
    /// The batch id of every request, in order.
    public private(set) var batchIDs: [String] = []
    /// Gap intervals (batch version 2) by id, each stored once.
    public private(set) var gaps: [String: WireGap] = [:]
    /// Requests whose answer is lost after the commit, counted down.
    private var loseAnswers: Int
    /// Runs before the server handles a request (e.g. to advance virtual time).
    private let onRequest: (@Sendable () -> Void)?
    /// The server's clock, for the time rules (not before 2000, not more than a day ahead).
    private let now: @Sendable () -> Instant

    /// - Parameters:
    ///   - now: the server's clock; by default ``ManualTime``'s default start, fixed, so pass the
    ///     test's virtual clock (`time.reader`) when samples go more than a day past that.
    public init(
        loseAnswers: Int = 0, onRequest: (@Sendable () -> Void)? = nil,
        now: @escaping @Sendable () -> Instant = { ManualTime.defaultStart }
    ) {
        self.loseAnswers = loseAnswers
        self.onRequest = onRequest
        self.now = now
    }

    public func send(_ request: BatchRequest) async -> UploadOutcome {
        onRequest?()
        batches += 1
        batchIDs.append(request.batch)
        var response = BatchResponse()
        let received = now()
        for wire in request.samples {
            receipts[wire.id, default: 0] += 1
            do {
                try wire.decoded().check(receivedAt: received)
            } catch {
                response.rejected.append(.init(id: wire.id, reason: error.description))
                continue
            }
            if stored[wire.id] == nil {
                stored[wire.id] = wire
                response.accepted.append(wire.id)
            } else {
                response.duplicates.append(wire.id)
            }
        }
        if let sent = request.gaps {
            response.gapsStored = []
            response.gapsRejected = []
            for gap in sent {
                do {
                    _ = try gap.interval()
                    gaps[gap.id] = gaps[gap.id] ?? gap
                    response.gapsStored?.append(gap.id)
                } catch {
                    response.gapsRejected?.append(.init(id: gap.id, reason: error.description))
                }
            }
        }
        if loseAnswers > 0 {
            loseAnswers -= 1
            return .networkError(message: "connection reset after the server committed (simulated)")
        }
        return .acknowledged(response.acknowledgement)
    }
}

/// A transport that must not be used: it records the attempt and answers a network error.
public actor UnimplementedTransport: BatchTransport {
    public private(set) var attempts = 0
    public init() {}

    public func send(_ request: BatchRequest) async -> UploadOutcome {
        attempts += 1
        return .networkError(message: "UnimplementedTransport.send was called; this test expected no upload")
    }
}
