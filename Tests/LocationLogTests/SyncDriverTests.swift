import BackgroundCore
import Foundation
import GRDB
import LocationLog
import LocationLogTesting
import Testing

/// The one sync driver every shell calls: its steps against a real (in-memory) store, on virtual time.
@Suite struct SyncDriverTests {
    let now = Instant(milliseconds: 1_732_240_000_000)

    func makeStore(samples: Int, writer: (any DatabaseWriter)? = nil) throws -> LocationStore {
        let store = try writer.map { try LocationStore(writer: $0) } ?? LocationStore.inMemory()
        for index in 0..<samples {
            let fix = LocationFix(
                timestamp: now + .seconds(Int64(index) * 60), latitude: 31.2304 + Double(index) * 1e-4,
                longitude: 121.4737, horizontalAccuracy: 10)
            try store.append(fix, trigger: .timer, state: .background)
        }
        return store
    }

    @Test func nothingPendingMeansNoUploadAndNothingCounted() throws {
        let store = try makeStore(samples: 0)
        var driver = try SyncDriver(store: store, device: "iphone-42", seed: 1)
        var tally = SyncDriver.Tally()
        #expect(try driver.wake(pending: 0, store: store, at: now, into: &tally) == nil)
        #expect(tally == SyncDriver.Tally())
        #expect(!driver.machine.isUploading)
    }

    @Test func wakeReadsTheOldestBatchAndBuildsItsRequest() throws {
        let store = try makeStore(samples: 3)
        var driver = try SyncDriver(store: store, device: "iphone-42", seed: 1)
        var tally = SyncDriver.Tally()
        let gap = WireGap(
            id: "00000000-0000-4000-8000-00000000000a", start: now.milliseconds, end: now.milliseconds + 600_000,
            reason: "no-network")
        let upload = try #require(
            try driver.wake(pending: 3, store: store, at: now, gaps: { [gap] }, into: &tally))
        let pending = try store.oldestPending(limit: 10)
        #expect(upload.samples == pending)
        #expect(upload.sent == Set(pending.map(\.id)))
        #expect(driver.machine.isUploading, "the machine waits for the answer")
        let request = upload.request
        #expect(request.device == "iphone-42")
        #expect(request.batch == BatchRequest.batchID(for: pending.map(\.id)).wireString)
        #expect(request.samples == pending.map(WireSample.init))
        #expect(request.v == BatchRequest.gapsVersion && request.gaps == [gap])
        #expect(tally.attempts == 0, "nothing was heard yet")
    }

    @Test func hearingAnAcknowledgementDeletesExactlyTheStoredAndCountsIt() throws {
        let store = try makeStore(samples: 4)
        var driver = try SyncDriver(store: store, device: "d", seed: 1)
        var tally = SyncDriver.Tally()
        let upload = try #require(try driver.wake(pending: 4, store: store, at: now, into: &tally))
        let ids = upload.samples.map(\.id)
        let answer = UploadOutcome.acknowledged(
            BatchAcknowledgement(stored: [ids[0], ids[1]], rejected: [ids[2]: "latitude 91 is outside -90…90"]))
        try driver.hear(answer, of: upload.sent, took: .seconds(2), store: store, at: now + .seconds(2), into: &tally)
        #expect(tally.attempts == 1 && tally.acknowledged == 1)
        #expect(tally.deleted == 2 && tally.quarantined == 1)
        #expect(tally.outcomes == [answer])
        #expect(try store.pendingIDs() == [ids[3]], "the one not mentioned stays pending")
        #expect(!driver.machine.isUploading)
    }

    @Test func aRefusedTokenYieldsATypedNoticeTheShellCanPost() throws {
        let store = try makeStore(samples: 2)
        var driver = try SyncDriver(store: store, device: "d", seed: 1)
        var tally = SyncDriver.Tally()
        let upload = try #require(try driver.wake(pending: 2, store: store, at: now, into: &tally))
        try driver.hear(
            .unauthorized(status: 403, message: "token revoked"), of: upload.sent, took: .seconds(1), store: store,
            at: now, into: &tally)
        #expect(tally.notices == [.tokenRefused(status: 403)])
        #expect(tally.notices.map(\.userNotice) == [.uploadsHeld])
        #expect(tally.notices.first?.message.contains("HTTP 403") == true)
        #expect(tally.attempts == 1 && tally.acknowledged == 0 && tally.deleted == 0)
        #expect(try store.pendingCount() == 2)
        #expect(try driver.wake(pending: 2, store: store, at: now + .seconds(86_400), into: &tally) == nil, "held")
        var released = SyncDriver.Tally()
        try driver.credentialsChanged(store: store, at: now + .seconds(86_400), into: &released)
        #expect(try driver.wake(pending: 2, store: store, at: now + .seconds(86_400), into: &released) != nil)
    }

    /// Without being told the attempt ended, the machine would wait for that answer for good.
    @Test func anUnreadableBatchEndsTheAttemptAndThrows() throws {
        let queue = try DatabaseQueue()
        let store = try makeStore(samples: 2, writer: queue)
        var driver = try SyncDriver(store: store, device: "d", seed: 1)
        try queue.write { try $0.execute(sql: "DROP TABLE sample") }
        var tally = SyncDriver.Tally()
        #expect(throws: StoreError.self) { try driver.wake(pending: 2, store: store, at: now, into: &tally) }
        #expect(!driver.machine.isUploading)
        #expect(driver.machine.snapshot.consecutiveFailures == 1, "a failure: it backs off")
        guard case .unexpectedResponse(let message)? = tally.outcomes.first else {
            Issue.record("no outcome heard: \(tally.outcomes)")
            return
        }
        #expect(message.hasPrefix("the batch could not be read"))
    }

    /// The machine logs a deferral for lack of background time once, not on every wake.
    @Test func aDeferredUploadIsLoggedOnceThenUploadsWhenTimeAllows() {
        var machine = SyncMachine(seed: 1)
        let short = Duration.seconds(1)
        let first = machine.handle(.wake(pending: 5, backgroundTimeRemaining: short), at: now)
        #expect(first.count == 1 && first.uploadLimit == nil)
        #expect(machine.handle(.wake(pending: 5, backgroundTimeRemaining: short), at: now) == [])
        #expect(!machine.isUploading)
        #expect(machine.handle(.wake(pending: 5, backgroundTimeRemaining: nil), at: now).uploadLimit != nil)
        #expect(machine.isUploading)
        #expect(machine.handle(.wake(pending: 5, backgroundTimeRemaining: nil), at: now) == [], "one at a time")
        _ = machine.handle(.uploaded(sent: [], outcome: .networkError(message: "down"), took: .zero), at: now)
        #expect(!machine.isUploading)
        #expect(
            machine.handle(.wake(pending: 5, backgroundTimeRemaining: short), at: now + .seconds(3600)).count == 1,
            "a new deferral after an upload is logged again")
    }
}
