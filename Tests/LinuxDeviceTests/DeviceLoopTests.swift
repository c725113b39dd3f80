import BackgroundCore
import Foundation
import LinuxDevice
import LocationLog
import LocationLogTesting
import Testing

@Suite struct DeviceLoopTests {
    /// Three virtual hours of the Linux device against an in-memory server: a sample per 120 s
    /// slot, uploads every 30 min, nothing lost, nothing duplicated, `seq` without gaps.
    @Test func threeHoursOnVirtualTime() async throws {
        let time = ManualTime()
        let store = try LocationStore.inMemory()
        let server = InMemoryBatchServer(now: time.reader)
        let sync = try SyncEngine(store: store, transport: server, device: "linux-1", seed: 1, now: time.reader)
        let loop = DeviceLoop(
            recorder: SampleRecorder(store: store, sampling: .init(interval: .seconds(120))), sync: sync,
            player: .synthetic(start: time.now), now: time.reader)
        let start = time.now
        let end = start + .seconds(3 * 3600)
        var steps = 0
        while time.now < end {
            let next = await loop.step()
            time.advance(by: next - time.now)
            steps += 1
        }
        let stored = await loop.stored
        // Slots are aligned to the epoch, so three hours touch 90 slots, or 91 when they start mid-slot.
        let slots = SamplingMachine(configuration: .init(interval: .seconds(120)))
        let touched = slots.slot(containing: end - .milliseconds(1)) - slots.slot(containing: start) + 1
        #expect(stored == Int(touched))
        #expect((90...91).contains(stored))
        let onServer = await server.stored.values.map(\.seq).sorted()
        #expect(onServer.count + (try store.pendingCount()) == stored)
        #expect(onServer == Array(1...Int64(onServer.count)))
        #expect(await server.batches == 6)
        #expect(steps < 400, "the loop sleeps between slots instead of spinning (\(steps) steps)")
    }

    /// The device is restarted (same store) inside a slot that already has its sample: one fix
    /// per slot holds across the restart. Before, a fresh recorder took a second sample in it.
    @Test func aRestartDoesNotSampleTheSameSlotTwice() throws {
        let time = ManualTime(Instant(milliseconds: 1_732_240_020_000))
        let store = try LocationStore.inMemory()
        let player = RoutePlayer.synthetic(start: time.now)
        var first = SampleRecorder(store: store, sampling: .init(interval: .seconds(120)))
        first.start(at: time.now)
        guard case .stored = first.record(player.fix(at: time.now), trigger: .timer, state: .background, at: time.now)
        else {
            Issue.record("the first fix was not stored")
            return
        }
        time.advance(by: .seconds(30))
        var second = SampleRecorder(store: store, sampling: .init(interval: .seconds(120)))
        second.start(at: time.now)
        #expect(!second.wantsFix(at: time.now))
        #expect(second.record(player.fix(at: time.now), trigger: .timer, state: .background, at: time.now) == .surplus)
        #expect(try store.pendingCount() == 1)
        // The next slot is sampled as usual.
        time.advance(by: .seconds(120))
        #expect(second.wantsFix(at: time.now))
    }

    /// A server that refuses every sample: the device prints why, not only how many.
    @Test func rejectionReasonsAreReported() async throws {
        struct Refusing: BatchTransport {
            func send(_ request: BatchRequest) async -> UploadOutcome {
                let ids = request.samples.compactMap { UUID(uuidString: $0.id) }
                return .acknowledged(
                    BatchAcknowledgement(
                        rejected: Dictionary(uniqueKeysWithValues: ids.map { ($0, "t is 2 days ahead") })))
            }
        }
        let lines = Lines()
        let time = ManualTime()
        let store = try LocationStore.inMemory()
        let sync = try SyncEngine(store: store, transport: Refusing(), device: "linux-1", seed: 1, now: time.reader)
        let loop = DeviceLoop(
            recorder: SampleRecorder(store: store, sampling: .init(interval: .seconds(120))), sync: sync,
            player: .synthetic(start: time.now), now: time.reader, report: { lines.add($0) })
        let end = time.now + .seconds(3 * 3600)
        while time.now < end {
            let next = await loop.step()
            time.advance(by: next - time.now)
        }
        let rejected = lines.lock.withLock { lines.all }.filter {
            $0.contains("rejected") && $0.contains(": t is 2 days ahead")
        }
        #expect(!rejected.isEmpty, "\(lines.lock.withLock { lines.all }.suffix(5))")
        #expect(try store.quarantined().count > 0)
    }

    /// A day of the live device with the phone's disk full for two hours (issue 40, on a
    /// simulated disk where even the write-ahead log cannot grow): sampling pauses with one notice
    /// and the storage-full gap, the upload of what was stored before is acknowledged but cannot be
    /// deleted, and is not sent again; when space returns the delete goes through and sampling
    /// resumes by itself at once (the pause would have lasted three hours), the gap reaches the
    /// server, and every sample stored reached it exactly once.
    @Test func aDayWithTheDiskFullForTwoHoursLosesNothingAndUploadsEachSampleOnce() async throws {
        let lines = Lines()
        let time = ManualTime()
        let disk = try SimulatedDisk()
        let (store, _) = try LocationStore.open(path: disk.storePath, now: time.now)
        let server = InMemoryBatchServer(now: time.reader)
        let sync = try SyncEngine(store: store, transport: server, device: "linux-1", seed: 1, now: time.reader)
        let loop = DeviceLoop(
            recorder: SampleRecorder(
                store: store, sampling: .init(interval: .seconds(120)), pauseRetry: .seconds(3 * 3600)),
            sync: sync, player: .synthetic(start: time.now), now: time.reader, report: { lines.add($0) })
        let start = time.now
        let (fills, frees, end) = (
            start + .seconds(2 * 3600 + 900), start + .seconds(4 * 3600 + 900), start + .seconds(6 * 3600)
        )
        var storedBeforeFull = 0
        var resumedAt: Instant?
        while time.now < end {
            if time.now >= fills, time.now < frees, disk.freeBytes != 0 {
                storedBeforeFull = await loop.stored
                // Other apps take every byte, the log's too (truncated by a checkpoint): from now
                // on each write must grow a file. (With its log's space kept, the store would
                // write on for a while: see FullDiskSyncTests.)
                try store.checkpointLog()
                disk.fill()
            }
            if time.now >= frees, disk.freeBytes == 0 { disk.freeAll() }
            let before = await loop.stored
            let next = await loop.step()
            if time.now >= frees, resumedAt == nil, await loop.stored > before { resumedAt = time.now }
            time.advance(by: next - time.now)
        }
        let all = lines.lock.withLock { lines.all }
        #expect(disk.refusedWrites > 0)
        // One notice, not one per refused sample.
        #expect(all.filter { $0.hasPrefix("NOTICE:") && $0.contains("storage is full") }.count == 1, "\(all.suffix(8))")
        // Sampling resumed within a slot and the retry of the delete of space returning.
        let resumed = try #require(resumedAt, "sampling never resumed")
        #expect(resumed - frees <= SyncDriver.acknowledgementRetry + .seconds(120))
        // Nothing lost, nothing uploaded twice.
        let stored = await loop.stored
        let onServer = await server.stored.count
        #expect(onServer + (try store.pendingCount()) == stored)
        #expect(storedBeforeFull > 0 && onServer >= storedBeforeFull)
        #expect(await server.receipts.values.allSatisfy { $0 == 1 }, "each sample uploaded exactly once")
        // The two hours reached the server as a storage-full gap.
        let gaps = await server.gaps.values.filter { $0.reason == GapReason.storageFull.rawValue }
        let gap = try #require(gaps.first, "no storage-full gap reached the server")
        #expect(gaps.count == 1)
        #expect(abs(gap.start - fills.milliseconds) <= 120_000, "the gap starts at the first refused sample")
        #expect(gap.end == resumed.milliseconds || abs(gap.end - resumed.milliseconds) <= 120_000)
    }
}

/// The lines a device loop reported, from whichever thread it reports on.
private final class Lines: @unchecked Sendable {
    let lock = NSLock()
    var all: [String] = []
    func add(_ line: String) { lock.withLock { all.append(line) } }
}
