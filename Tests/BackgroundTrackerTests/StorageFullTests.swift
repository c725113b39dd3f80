import AppleShadow
import BackgroundCore
import Foundation
import GRDB
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// Issue 24 item 3: the phone's storage fills up while the shell samples. The store refuses
    /// every sample, so the shell remembers the condition in memory; the first sample stored once
    /// space is freed records the interval, which goes up with the next upload and leaves the
    /// phone when the server acknowledges it. No sample stored before is lost.
    @Suite("A full disk becomes a storage-full gap")
    @MainActor
    struct StorageFullTests {
        @Test("refused samples are remembered, recorded with the next stored sample, uploaded and acknowledged")
        func fullDiskIsRecordedAndUploaded() throws {
            let queue = try DatabaseQueue()
            let harness = try ShellHarness(store: try LocationStore(writer: queue))
            let tracker = try harness.trackingWithOneSample()
            let first = try #require(harness.uploader.uploads.first)
            let storedBefore = try harness.store.pendingIDs()

            // The disk is full: the database cannot grow past its pages. What room they have left
            // fills first, then the store refuses each slot's sample.
            let pages = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages)") }
            var firstRefused: Instant?
            var refused = 0
            for _ in 0..<2000 where refused < 3 {
                let pending = try harness.store.pendingCount()
                let refusedBefore = tracker.storageFull.refusedSamples
                try sampleNextSlot(tracker, harness)
                guard tracker.storageFull.refusedSamples > refusedBefore else { continue }
                #expect(try harness.store.pendingCount() == pending, "a refused sample is not stored")
                firstRefused = firstRefused ?? harness.clock.now
                refused += 1
            }
            let since = try #require(firstRefused, "the page limit never filled")
            #expect(tracker.storageFull.since == since)
            #expect(tracker.status.lastProblem?.contains("is full") == true, "\(tracker.status.lastProblem ?? "")")
            // The user is told once (issue 40), not at every refused sample.
            #expect(tracker.status.notices.filter { $0 == .storageFull } == [.storageFull])
            let storedWhileFilling = try harness.store.pendingIDs()

            // Space is freed: the next slot's sample is stored, and the interval with it.
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
            try sampleNextSlot(tracker, harness)
            let resumedAt = harness.clock.now
            #expect(tracker.storageFull == StorageFullWatch())
            #expect(tracker.status.lastProblem == nil, "the full disk's problem clears once a sample is stored")
            let gaps = try harness.store.pendingGaps(limit: 10)
            #expect(
                gaps.map(\.interval) == [
                    GapInterval(
                        start: since, end: resumedAt, reason: .storageFull, detail: "3 samples could not be stored")
                ])
            let pending = try harness.store.pendingIDs()
            #expect(pending.isSuperset(of: storedBefore.union(storedWhileFilling)), "no stored sample is lost")

            // The first upload is answered; the next batch, when the sync machine sends it, carries
            // the interval.
            harness.uploader.finish(first.description, status: 200, body: harness.acknowledgement(Array(storedBefore)))
            harness.clock.advance(to: harness.clock.now + .seconds(3600))
            let next = try #require(harness.uploader.uploads.last)
            #expect(next.description != first.description)
            let batch = try JSONDecoder().decode(BatchRequest.self, from: Gzip.decompress(Data(contentsOf: next.file)))
            let gapID = try #require(gaps.first?.id)
            #expect(batch.gaps?.map(\.id) == [gapID.wireString])
            #expect(batch.gaps?.first?.reason == "storage-full")

            // Acknowledged: the interval leaves the phone.
            let ids = batch.samples.map(\.id).map { "\"\($0)\"" }.joined(separator: ",")
            harness.uploader.finish(
                next.description, status: 200,
                body: #"{"result":"ok","accepted":[\#(ids)],"gapsStored":["\#(gapID.wireString)"]}"#)
            #expect(try harness.store.pendingGaps(limit: 10).isEmpty)
        }

        /// The next sampling slot: its timer fires and Core Location answers the one-shot request.
        private func sampleNextSlot(_ tracker: Tracker, _ harness: ShellHarness) throws {
            harness.clock.advance(to: harness.clock.now + .seconds(120))
            harness.system.deliver(harness.fix(), to: try #require(tracker.location?.oneShot))
        }
    }
}
