import BackgroundCore
import Foundation
import LocationLog
import LocationLogTesting
import Testing

@Suite struct DeviceLoopTests {
    /// Three virtual hours of the Linux device against an in-memory server: a sample per 120 s
    /// slot, uploads every 30 min, nothing lost, nothing duplicated, `seq` without gaps.
    @Test func threeHoursOnVirtualTime() async throws {
        let time = ManualTime()
        let store = try LocationStore.inMemory()
        let server = InMemoryBatchServer()
        let sync = try SyncEngine(store: store, transport: server, device: "linux-1", seed: 1, now: time.reader)
        let loop = DeviceLoop(
            recorder: SampleRecorder(store: store, sampling: .init(interval: .seconds(120))), sync: sync,
            player: .synthetic(start: time.now), now: time.reader)
        let end = time.now + .seconds(3 * 3600)
        var steps = 0
        while time.now < end {
            let next = await loop.step()
            time.advance(by: next - time.now)
            steps += 1
        }
        let stored = await loop.stored
        #expect(stored == 90)
        let onServer = await server.stored.values.map(\.seq).sorted()
        #expect(onServer.count + (try store.pendingCount()) == stored)
        #expect(onServer == Array(1...Int64(onServer.count)))
        #expect(await server.batches == 6)
        #expect(steps < 400, "the loop sleeps between slots instead of spinning (\(steps) steps)")
    }
}
