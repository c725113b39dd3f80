import BackgroundCore
import Foundation
import GRDB
import LocationLog
import Testing

/// A full disk (issue 24 item 3): the store cannot record the condition while it holds, so the
/// shell keeps it in memory (`StorageFullWatch`) and the next stored sample records the interval.
extension GapRecordingTests {
    /// A store on a database that cannot grow past its pages now, as on a full disk; `grow()`
    /// lifts the limit (space was freed).
    struct FullableStore {
        let queue: DatabaseQueue
        let store: LocationStore

        init() throws {
            queue = try DatabaseQueue()
            store = try LocationStore(writer: queue)
        }

        func fill() throws {
            let pages = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages)") }
        }

        func grow() throws {
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
        }
    }

    @Test func aFullDiskIsRecordedFromTheFirstRefusedSampleUntilTheNextStoredOne() throws {
        let disk = try FullableStore()
        var watch = StorageFullWatch()
        try disk.fill()
        // Samples every 2 minutes fill what room the pages have left, then the disk refuses them.
        var stored: [UUID] = []
        var firstRefused: Int64?
        var minute: Int64 = 0
        while firstRefused == nil, minute < 20_000 {
            do {
                stored.append(
                    try disk.store.append(fix(minute), trigger: .timer, state: .background, storageFull: &watch).id)
            } catch {
                #expect(error.isDiskFull, "\(error)")
                firstRefused = minute
            }
            minute += 2
        }
        let refusedAt = try #require(firstRefused, "the page limit never filled")
        #expect(watch.since == at(refusedAt))
        // Two more slots refused, 14 minutes in all: longer than the suspension threshold, yet the
        // app was awake and sampling, so it is no suspension.
        for later in [refusedAt + 6, refusedAt + 12] {
            do {
                try disk.store.append(fix(later), trigger: .timer, state: .background, storageFull: &watch)
                Issue.record("a sample was stored on a full disk at minute \(later)")
            } catch {
                #expect(error.isDiskFull, "\(error)")
            }
        }
        #expect(watch.refusedSamples == 3)
        #expect(try pending(disk.store).isEmpty, "nothing can be written meanwhile")
        try disk.grow()
        let resumed = try disk.store.append(
            fix(refusedAt + 14), trigger: .timer, state: .background, storageFull: &watch)
        #expect(watch == StorageFullWatch())
        #expect(
            try pending(disk.store) == [
                GapInterval(
                    start: at(refusedAt), end: at(refusedAt + 14), reason: .storageFull,
                    detail: "3 samples could not be stored")
            ])
        // Not one sample stored before the disk filled was lost.
        #expect(try disk.store.pendingIDs() == Set(stored + [resumed.id]))
        #expect(try disk.queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        // The interval rides with the next batch.
        #expect(disk.store.gapsForNextBatch().map(\.reason) == [GapReason.storageFull.rawValue])
    }

    @Test func aLongSilenceBeforeTheDiskFilledIsStillSuspension() throws {
        let store = try LocationStore.inMemory()
        var watch = StorageFullWatch()
        try store.append(fix(0), trigger: .timer, state: .background, storageFull: &watch)
        // Suspended for half an hour; woken at 30, the first sample is refused for a full disk.
        watch.sampleRefused(.diskFull(path: "store.sqlite"), at: at(30))
        // A failure that is not a full disk is not this condition.
        watch.sampleRefused(.database(operation: "storing a sample", reason: "I/O error"), at: at(32))
        #expect(watch.refusedSamples == 1)
        try store.append(fix(34), trigger: .timer, state: .background, storageFull: &watch)
        #expect(
            try pending(store) == [
                GapInterval(start: at(0), end: at(30), reason: .suspended),
                GapInterval(start: at(30), end: at(34), reason: .storageFull, detail: "1 sample could not be stored"),
            ])
    }
}
