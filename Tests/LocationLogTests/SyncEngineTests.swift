import BackgroundCore
import Foundation
import GRDB
import LocationLog
import LocationLogTesting
import Testing

/// The sync machine driven against a real (in-memory) store and fake transports, in virtual time.
@Suite struct SyncEngineTests {
    let time = ManualTime()

    func makeStore(samples: Int) throws -> LocationStore {
        let store = try LocationStore.inMemory()
        for index in 0..<samples { try store.append(fix(index), trigger: .timer, state: .background) }
        return store
    }

    func fix(_ index: Int) -> LocationFix {
        LocationFix(
            timestamp: time.now + .seconds(Int64(index) * 120), latitude: 31.2304 + Double(index) * 1e-4,
            longitude: 121.4737, horizontalAccuracy: 10)
    }

    func engine(_ store: LocationStore, _ transport: any BatchTransport) throws -> SyncEngine {
        try SyncEngine(store: store, transport: transport, device: "iphone-42", seed: 7, now: time.reader)
    }

    @Test func successDeletesExactlyAcceptedAndDuplicatesAndQuarantinesRejected() async throws {
        let store = try makeStore(samples: 6)
        let samples = try store.oldestPending(limit: 10)
        let transport = ScriptedTransport([
            { _ in
                .acknowledged(
                    BatchAcknowledgement(
                        stored: [samples[0].id, samples[1].id, samples[2].id],
                        rejected: [samples[3].id: "latitude 91.2 is outside -90…90"]))
            }
        ])
        let report = try await engine(store, transport).wake()
        #expect(report.deleted == 3 && report.quarantined == 1)
        // Samples the server did not mention stay pending and go again next time.
        #expect(try store.pendingIDs() == [samples[4].id, samples[5].id])
        let quarantined = try store.quarantined()
        #expect(quarantined.map(\.sample.id) == [samples[3].id])
        #expect(quarantined.first?.reason == "latitude 91.2 is outside -90…90")
        #expect(try store.diagnostics().contains { $0.message.contains("quarantined") })
    }

    @Test(arguments: [
        UploadOutcome.badRequest(message: "body is not JSON"),
        .tooLarge,
        .unauthorized(status: 401, message: "unknown token"),
        .unauthorized(status: 403, message: "device revoked"),
        .rateLimited(retryAfter: .seconds(60)),
        .serverError(status: 500, message: "database locked"),
        .serverError(status: 503, message: "maintenance"),
        .clientError(status: 404, message: "no such route"),
        .clientError(status: 422, message: "unprocessable"),
        .unexpectedResponse(message: "HTTP 200 without a batch response"),
        .networkError(message: "connection refused"),
    ])
    func noFailureEverDeletes(outcome: UploadOutcome) async throws {
        let store = try makeStore(samples: 20)
        let before = try store.pendingIDs()
        let sync = try engine(store, ScriptedTransport([ScriptedTransport.always(outcome)]))
        let report = try await sync.wake()
        #expect(report.uploads == 1 && report.deleted == 0)
        #expect(try store.pendingIDs() == before)
        let snapshot = try store.syncSnapshot()
        switch outcome {
        case .tooLarge:
            #expect(snapshot.batchSize == 10 && snapshot.retryAt == nil, "half of the 20 samples sent")
        case .unauthorized:
            #expect(snapshot.heldReason != nil)
            #expect(await sync.notices.map(\.userNotice) == [.uploadsHeld])
        default:
            #expect(snapshot.consecutiveFailures == 1)
            #expect((snapshot.retryAt ?? time.now) > time.now)
        }
    }

    @Test func tooLargeRetriesAtOnceWithHalfTheBatch() async throws {
        let store = try makeStore(samples: 600)
        let transport = ScriptedTransport([ScriptedTransport.always(.tooLarge)])
        let sync = try engine(store, transport)
        try await sync.wake()
        try await sync.wake()
        let sizes = await transport.requests.map(\.samples.count)
        #expect(sizes == [500, 250])
        #expect(try store.pendingCount() == 350)
    }

    @Test func heldUploadsResumeAfterCredentialsChange() async throws {
        let store = try makeStore(samples: 3)
        let transport = ScriptedTransport([ScriptedTransport.always(.unauthorized(status: 401, message: "expired"))])
        let sync = try engine(store, transport)
        try await sync.wake()
        time.advance(by: .seconds(7200))
        #expect(try await sync.wake().uploads == 0)
        try await sync.credentialsChanged()
        #expect(try await sync.wake().deleted == 3)
    }

    /// Seed 003 deleted every row after an upload, including rows written meanwhile. Here a
    /// sample stored while the batch is in flight survives the batch's success.
    @Test func sampleWrittenDuringUploadSurvivesItsSuccess() async throws {
        let store = try makeStore(samples: 5)
        let late = LockedBox<Sample?>(nil)
        let transport = ScriptedTransport([
            { [time] request in
                time.advance(by: .seconds(3))
                // Sampling goes on while the request is in flight.
                late.value = try? store.append(
                    LocationFix(timestamp: time.now, latitude: 31.3, longitude: 121.5, horizontalAccuracy: 8),
                    trigger: .timer, state: .background)
                return await ScriptedTransport.acceptAll(request)
            }
        ])
        let report = try await engine(store, transport).wake()
        #expect(report.deleted == 5)
        let survivor = try #require(late.value)
        #expect(try store.pendingIDs() == [survivor.id])
        #expect(survivor.seq == 6)
    }

    /// The server commits a batch but its answer is lost; the phone backs off and sends the same
    /// samples again; the server answers them as duplicates and stores each exactly once.
    @Test func resentBatchesCauseNoDuplicates() async throws {
        let store = try makeStore(samples: 40)
        let server = InMemoryBatchServer(loseAnswers: 2, now: time.reader)
        let sync = try engine(store, server)
        var rounds = 0
        while try store.pendingCount() > 0, rounds < 10 {
            try await sync.wake()
            if let next = try await sync.nextWake(), next > time.now { time.advance(by: next - time.now) }
            rounds += 1
        }
        #expect(try store.pendingCount() == 0)
        #expect(await server.stored.count == 40)
        #expect(await server.batches == 3)
        #expect(await server.receipts.values.allSatisfy { $0 == 3 })
        // The same samples went out under the same batch id each time.
        #expect(Set(await server.batchIDs).count == 1)
    }

    @Test func aBacklogDrainsBatchByBatchInOneWake() async throws {
        let store = try makeStore(samples: 1200)
        // The fixes span 40 hours from `time.now`; the server's clock reads the last one's time,
        // or it would refuse those more than a day ahead of it, as the real server does.
        let server = InMemoryBatchServer(now: { [time] in time.now + .seconds(1200 * 120) })
        let sync = try engine(store, server)
        let report = try await sync.wake()
        // 500 + 500, then 200 left: below a batch and the interval has not passed.
        #expect(report.uploads == 2)
        #expect(try store.pendingCount() == 200)
        time.advance(by: .seconds(1800))
        #expect(try await sync.wake().deleted == 200)
        let seqs = await server.stored.values.map(\.seq).sorted()
        #expect(seqs == Array(1...1200))
    }

    @Test func backgroundTimeIsSpentByUploads() async throws {
        let store = try makeStore(samples: 1500)
        let server = InMemoryBatchServer(onRequest: { [time] in time.advance(by: .seconds(20)) }, now: time.reader)
        let sync = try engine(store, server)
        // 70 s left: the first upload (needs 30 s) runs and takes 20 s; the second now needs 40 s
        // (twice the last one) and 50 s are left; the third would have 30 s left and is not started.
        let report = try await sync.wake(backgroundTimeRemaining: .seconds(70))
        #expect(report.uploads == 2)
        #expect(try store.pendingCount() == 500)
    }
}

extension SyncEngineTests {
    /// A server answering `200` without naming any sample of the batch is retried with back-off;
    /// before, each such answer counted as a success and one wake re-sent the same batch 100 times.
    @Test func anEmptyAcknowledgementIsNotResentInAHotLoop() async throws {
        let store = try makeStore(samples: 600)
        let transport = ScriptedTransport([], fallback: ScriptedTransport.always(.acknowledged(BatchAcknowledgement())))
        let sync = try engine(store, transport)
        let report = try await sync.wake()
        #expect(report.uploads == 1)
        #expect(try store.pendingCount() == 600)
        let snapshot = try store.syncSnapshot()
        #expect(snapshot.consecutiveFailures == 1 && snapshot.lastSuccess == nil)
        #expect((snapshot.retryAt ?? time.now) > time.now)
    }

    /// A store read failing after the machine decided to upload (SQLITE_BUSY, an I/O error) must
    /// not leave the machine believing an upload is in flight: sync resumes once the store reads.
    @Test func aStoreErrorBeforeTheUploadDoesNotStopSyncForGood() async throws {
        let queue = try DatabaseQueue()
        let store = try LocationStore(writer: queue)
        for index in 0..<3 { try store.append(fix(index), trigger: .timer, state: .background) }
        // Break only the batch query; the pending count still works.
        try await queue.write { try $0.execute(sql: "ALTER TABLE sample RENAME COLUMN lat TO latitude") }
        let sync = try engine(store, ScriptedTransport())
        await #expect(throws: StoreError.self) { try await sync.wake() }
        try await queue.write { try $0.execute(sql: "ALTER TABLE sample RENAME COLUMN latitude TO lat") }
        let next = try #require(try await sync.nextWake(), "the machine still thinks an upload is in flight")
        if next > time.now { time.advance(by: next - time.now) }
        #expect(try await sync.wake().deleted == 3)
    }

    /// Rows the store cannot read (a value of the wrong type) are kept but must neither hide the
    /// samples behind them nor make the engine spin: before, a batch of only unreadable rows read
    /// as empty, counted as a success, and the engine read it again 100 times per wake.
    @Test func unreadableRowsNeitherBlockNewerSamplesNorSpinTheEngine() async throws {
        let queue = try DatabaseQueue()
        let store = try LocationStore(writer: queue)
        for index in 0..<5 { try store.append(fix(index), trigger: .timer, state: .background) }
        try await queue.write { try $0.execute(sql: "UPDATE sample SET t = 'garbage' WHERE seq <= 3") }
        let server = InMemoryBatchServer(now: time.reader)
        let sync = try SyncEngine(
            store: store, transport: server, device: "iphone-42", configuration: .init(batchSize: 2), seed: 7,
            now: time.reader)
        let report = try await sync.wake()
        #expect(await server.stored.values.map(\.seq).sorted() == [4, 5])
        #expect(report.outcomes.count <= 2, "\(report.outcomes.count) attempts in one wake")
        #expect(try store.pendingCount() == 3, "unreadable rows are kept")
    }

    @Test func tooLargeHalvesASmallBacklogToo() async throws {
        let store = try makeStore(samples: 40)
        let transport = ScriptedTransport([ScriptedTransport.always(.tooLarge)])
        let sync = try engine(store, transport)
        try await sync.wake()
        try await sync.wake()
        #expect(await transport.requests.map(\.samples.count) == [40, 20])
        #expect(try store.pendingCount() == 20)
    }
}

/// A lock-guarded mutable box for values a `@Sendable` closure sets.
/// `@unchecked Sendable`: `stored` is only accessed while holding `lock`.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
