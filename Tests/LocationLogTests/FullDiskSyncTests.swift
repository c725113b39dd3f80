import BackgroundCore
import Foundation
import LocationLog
import LocationLogTesting
import Testing

/// A full disk on the phone (issue 40): the upload succeeds but the delete of the acknowledged
/// rows cannot be written. Before, the same 32 samples went up again at every wake (5,095 times on
/// the live device). On a simulated disk where even the write-ahead log cannot grow
/// (`SimulatedDisk`), as on a real one; `PRAGMA max_page_count` refuses only inserts that need a
/// new page, never a delete.
@Suite struct FullDiskSyncTests {
    let time = ManualTime()
    let start = ManualTime.defaultStart

    func fix(_ minute: Int) -> LocationFix {
        LocationFix(
            timestamp: start + .seconds(Int64(minute) * 60), latitude: 31.2304 + Double(minute) * 1e-5,
            longitude: 121.4737, horizontalAccuracy: 10)
    }

    /// A store in the disk's directory with one sample every 2 minutes for `count` samples.
    func storeWithSamples(on disk: SimulatedDisk, count: Int) throws -> LocationStore {
        let (store, _) = try LocationStore.open(path: disk.storePath, now: time.now)
        for index in 0..<count { try store.append(fix(index * 2), trigger: .timer, state: .background) }
        return store
    }

    func engine(_ store: LocationStore, _ server: InMemoryBatchServer) throws -> SyncEngine {
        try SyncEngine(store: store, transport: server, device: "iphone-42", seed: 7, now: time.reader)
    }

    /// The disk fills after 32 samples: the upload is acknowledged but the delete is refused.
    /// The rest of the day not one of them is sent again; when space returns the delete is written
    /// and every sample reached the server exactly once.
    @Test func anAcknowledgedBatchIsNotUploadedAgainWhileItsDeleteCannotBeWritten() async throws {
        let disk = try SimulatedDisk()
        let store = try storeWithSamples(on: disk, count: 32)
        let stored = try store.pendingIDs()
        let server = InMemoryBatchServer(now: time.reader)
        let sync = try engine(store, server)
        // The log was just checkpointed (as after the last upload), so any write must grow it.
        try store.checkpointLog()
        disk.fill()
        time.advance(by: .seconds(3600))
        do {
            try await sync.wake()
            Issue.record("the delete was written on a full disk")
        } catch {
            #expect(error.isDiskFull, "\(error)")
        }
        #expect(disk.refusedWrites > 0)
        #expect(await server.stored.count == 32, "the server has them all")
        #expect(await sync.awaitingWrite == stored, "the acknowledgement is remembered")
        #expect(try store.pendingIDs() == stored, "they stay on the phone until the delete is written")
        // The rest of the day: a wake every 5 minutes tries the delete again and uploads nothing.
        for _ in 0..<(10 * 12) {
            let next = try #require(try await sync.nextWake(), "the refused delete is tried again")
            #expect(next <= time.now + SyncDriver.acknowledgementRetry)
            time.advance(by: SyncDriver.acknowledgementRetry)
            let report = try await sync.wake()
            #expect(report.uploads == 0 && report.deleted == 0 && report.awaitingWrite == 32)
        }
        #expect(await server.batches == 1, "one upload, not one per wake")
        // The user frees space: the next wake writes the delete.
        disk.freeAll()
        time.advance(by: SyncDriver.acknowledgementRetry)
        let report = try await sync.wake()
        #expect(report.deleted == 32 && report.uploads == 0 && report.awaitingWrite == 0)
        #expect(try store.pendingCount() == 0)
        #expect(await sync.awaitingWrite.isEmpty)
        #expect(await server.batches == 1)
        #expect(await server.receipts.values.allSatisfy { $0 == 1 }, "each sample uploaded exactly once")
        #expect(Set(await server.stored.keys) == Set(stored.map(\.wireString)))
    }

    /// A write that must grow the log fails on a full disk, a delete included. The store then
    /// checkpoints the log and restarts it, and the delete goes through in the space the log's file
    /// already has.
    @Test func aDeleteRefusedForAFullLogGoesThroughOnceACheckpointRestartsTheLog() throws {
        let disk = try SimulatedDisk()
        let store = try storeWithSamples(on: disk, count: 200)
        // Uploaded earlier in the day: the file keeps the freed pages, which new samples reuse.
        try store.acknowledge(deleting: try store.pendingIDs(), quarantining: [:], at: time.now)
        try store.checkpointLog()
        for index in 200..<210 { try store.append(fix(index * 2), trigger: .timer, state: .background) }
        let batch = try store.pendingIDs()
        #expect(batch.count == 10)
        let log = disk.size(of: "phone.sqlite-wal")
        #expect(log > 40_000, "10 samples wrote \(log) bytes of log")
        // The checkpoint adds no page to the file (only the log cannot grow).
        try #require(try store.checkpointedSize() <= disk.size(of: "phone.sqlite"))
        disk.setFree(bytes: 0)
        let (deleted, _) = try store.acknowledge(deleting: batch, quarantining: [:], at: time.now)
        #expect(deleted == 10)
        #expect(disk.refusedWrites > 0, "the disk did refuse the log's growth")
        #expect(try store.pendingCount() == 0)
        #expect(disk.size(of: "phone.sqlite-wal") <= log, "the delete was written in the log's own space")
        // And sampling can carry on in that space.
        try store.append(fix(500), trigger: .timer, state: .background)
        #expect(try store.pendingCount() == 1)
    }

    /// After an upload the log restarts in its own file and the deleted rows' pages are free: on
    /// a disk other apps then fill to the last byte, the next samples and the next delete still
    /// fit, so a full disk stops nothing until that room is used up.
    @Test func afterAnUploadTheStoreWritesOnAFullDiskInItsOwnSpace() throws {
        let disk = try SimulatedDisk()
        let store = try storeWithSamples(on: disk, count: 60)
        try store.acknowledge(deleting: try store.pendingIDs(), quarantining: [:], at: time.now)
        disk.fill()
        for index in 60..<72 { try store.append(fix(index * 2), trigger: .timer, state: .background) }
        let (deleted, _) = try store.acknowledge(deleting: try store.pendingIDs(), quarantining: [:], at: time.now)
        #expect(deleted == 12)
        #expect(disk.refusedWrites == 0)
    }

    /// The live device's full disk: 135 samples wrote a 3.1 MB log that filled a 3 MB disk, and
    /// the log could then not be checkpointed (that needs room for the pages it adds to the file),
    /// so nothing could be written until the user freed space. The store checkpoints its log
    /// every 100 pages (not SQLite's 1000), so it never takes more than about 400 KB.
    @Test func theLogStaysSmallSoADiskWithOneMegabyteFreeTakes300Samples() throws {
        let disk = try SimulatedDisk()
        let (store, _) = try LocationStore.open(path: disk.storePath, now: time.now)
        disk.setFree(bytes: 1_000_000)
        for index in 0..<300 { try store.append(fix(index * 2), trigger: .timer, state: .background) }
        #expect(try store.pendingCount() == 300)
        #expect(disk.size(of: "phone.sqlite-wal") < 500_000, "\(disk.size(of: "phone.sqlite-wal")) bytes of log")
        #expect(disk.refusedWrites == 0)
    }

    /// The phone is killed while the disk is full and the acknowledgement is only in memory. The
    /// relaunched store (opened from the file) still holds the batch: it goes up once more, and the
    /// server answers it as duplicates (docs/protocol.md §Acknowledgement); then not again. When
    /// space returns nothing is lost, and the only duplicates are that one batch.
    @Test func aKillWhileTheDiskIsFullLosesNothingAndDuplicatesOnlyTheBatchInFlight() async throws {
        let disk = try SimulatedDisk()
        // A new store: what it holds is still in the log, and a checkpoint must grow the file.
        let before = try storeWithSamples(on: disk, count: 12)
        try #require(try before.checkpointedSize() > disk.size(of: "phone.sqlite"))
        let stored = try before.pendingIDs()
        let server = InMemoryBatchServer(now: time.reader)
        let first = try engine(before, server)
        disk.fill()
        time.advance(by: .seconds(3600))
        _ = try? await first.wake()
        #expect(await first.awaitingWrite == stored)
        // Killed: the engine's memory is gone; a new process opens the same file, disk still full.
        time.advance(by: .seconds(600))
        let (store, report) = try LocationStore.open(path: disk.storePath, now: time.now)
        #expect(report.movedAside == nil)
        #expect(try store.pendingIDs() == stored, "nothing stored before the disk filled was lost")
        let relaunched = try engine(store, server)
        _ = try? await relaunched.wake()
        #expect(await server.batches == 2, "the batch in flight goes once more after the kill")
        for _ in 0..<24 {
            time.advance(by: SyncDriver.acknowledgementRetry)
            _ = try? await relaunched.wake()
        }
        #expect(await server.batches == 2, "and not again")
        disk.freeAll()
        time.advance(by: SyncDriver.acknowledgementRetry)
        let done = try await relaunched.wake()
        #expect(done.deleted == 12)
        #expect(try store.pendingCount() == 0)
        #expect(Set(await server.stored.keys) == Set(stored.map(\.wireString)), "every sample reached the server")
        let receipts = await server.receipts
        #expect(receipts.values.allSatisfy { $0 <= 2 })
        #expect(Set(receipts.filter { $0.value == 2 }.keys) == Set(stored.map(\.wireString)))
        withExtendedLifetime(first) {}  // a kill closes nothing: the first connection stays open
    }
}
