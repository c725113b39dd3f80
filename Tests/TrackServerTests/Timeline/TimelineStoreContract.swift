import BackgroundCore
import Foundation
import LocationLog
import Logging
import Testing
import TrackGeometry
import TrackServer

/// The contract of ``TimelineStore`` and of ``TimelineUpdater`` on it: run on SQLite (in memory
/// and on disk) and on PostgreSQL.
enum TimelineContract {
    static let now = Instant(milliseconds: 1_732_244_800_000)
    static let day = Instant(milliseconds: 1_732_233_600_000)
    static let quiet = Logger(label: "bgtrack.test.timeline") { _ in SwiftLogNoOpLogHandler() }

    static func stay(_ startMinutes: Int64, _ endMinutes: Int64, inferred: Bool = false) -> TimelineEntry {
        .stay(
            Stay(
                start: day + .seconds(startMinutes * 60), end: day + .seconds(endMinutes * 60), latitude: 31.2,
                longitude: 121.4, radius: 12, sampleCount: 5, inferred: inferred))
    }

    static func trip(_ startMinutes: Int64, _ endMinutes: Int64) -> TimelineEntry {
        .trip(
            Trip(
                start: day + .seconds(startMinutes * 60), end: day + .seconds(endMinutes * 60), distance: 1234.5,
                sampleCount: 7, startLatitude: 31.2, startLongitude: 121.4, endLatitude: 31.21, endLongitude: 121.41))
    }

    static func gap(_ startMinutes: Int64, _ endMinutes: Int64) -> TimelineEntry {
        .gap(TimelineGap(start: day + .seconds(startMinutes * 60), end: day + .seconds(endMinutes * 60)))
    }

    static func entriesAndCheckpointRoundTrip(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        #expect(try await store.timelineCheckpoint(device: "a") == nil)
        let entries = [stay(0, 60, inferred: true), trip(60, 80), gap(80, 200), stay(200, 300)]
        try await store.saveTimeline(device: "a", closed: entries, checkpoint: "{\"x\":1}", replacingFrom: nil)
        #expect(try await store.timelineCheckpoint(device: "a") == "{\"x\":1}")
        #expect(try await store.timelineEntries(device: "a", from: day, to: day + .seconds(86_400)) == entries)
        // Overlap: end ≥ from and start < to.
        let middle = try await store.timelineEntries(
            device: "a", from: day + .seconds(70 * 60), to: day + .seconds(200 * 60))
        #expect(middle == [trip(60, 80), gap(80, 200)])
        #expect(try await store.timelineEntries(device: "b", from: day, to: day + .seconds(86_400)).isEmpty)
        #expect(try await store.timelineEntries(device: "nobody", from: day, to: day + .seconds(86_400)).isEmpty)
        // A rebuild replaces what starts at or after its start, and the checkpoint.
        try await store.saveTimeline(
            device: "a", closed: [trip(60, 90), stay(90, 400)], checkpoint: "{\"x\":2}",
            replacingFrom: day + .seconds(60 * 60))
        #expect(
            try await store.timelineEntries(device: "a", from: day, to: day + .seconds(86_400))
                == [stay(0, 60, inferred: true), trip(60, 90), stay(90, 400)])
        #expect(try await store.timelineCheckpoint(device: "a") == "{\"x\":2}")
    }

    static func anUnknownDeviceWritesNothing(_ store: any TrackStore) async throws {
        await #expect(throws: TrackStoreError.unknownDevice("ghost")) {
            try await store.saveTimeline(device: "ghost", closed: [stay(0, 60)], checkpoint: "{}", replacingFrom: nil)
        }
        #expect(try await store.timelineCheckpoint(device: "ghost") == nil)
    }

    /// A day of 2-minute samples: home, a walk, the office, a silent hour with the phone moved.
    static func daySamples() -> [TrackSample] {
        var samples: [TrackSample] = []
        var minute: Int64 = 0
        func add(_ north: Double) {
            let time = day + .seconds(minute * 60)
            samples.append(
                TrackSample(
                    key: "k\(minute)", id: "k\(minute)", seq: minute + 1,
                    values: SampleValues(time: time, latitude: 31.2 + north / 111_320, longitude: 121.4, accuracy: 8),
                    source: .native))
        }
        while minute < 120 { add(Double(minute % 4)); minute += 2 }  // home
        while minute < 150 { add(Double(minute - 120) * 84); minute += 2 }  // walking 1.4 m/s
        while minute < 240 { add(2520 + Double(minute % 3)); minute += 2 }  // office
        minute += 60  // silent, then elsewhere
        while minute < 400 { add(9000 + Double(minute % 5)); minute += 2 }
        return samples
    }

    static func offline(_ samples: [TrackSample]) -> [TimelineEntry] {
        var builder = TimelineBuilder()
        let points = samples.sorted { $0.time < $1.time }.map {
            SampleValues(time: $0.time, latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy)
        }
        var entries: [TimelineEntry] = []
        for point in points { entries += builder.add(point) }
        return entries + builder.finish()
    }

    static func all(_ updater: TimelineUpdater, device: String = "a") async throws -> [TimelineEntry] {
        let found = try await updater.timeline(device: device, from: day, to: day + .seconds(86_400))
        return found.closed + found.provisional
    }

    /// The updater fed batch by batch, a late batch, and a restart all give the offline timeline.
    static func theUpdaterMatchesTheOfflineTimeline(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        let samples = daySamples()
        let expected = offline(samples)
        #expect(expected.map(\.kind) == ["stay", "trip", "stay", "gap", "stay"])
        let updater = TimelineUpdater(store: store, settings: .init(), logger: quiet)
        // In batches of 17, holding back one batch from the middle, which arrives last (late).
        let batches = stride(from: 0, to: samples.count, by: 17).map {
            Array(samples[$0..<min($0 + 17, samples.count)])
        }
        for (index, batch) in batches.enumerated() where index != 3 {
            _ = try await store.insert(batch, device: "a", at: now)
            await updater.ingest(batch, device: "a")
        }
        _ = try await store.insert(batches[3], device: "a", at: now)
        await updater.ingest(batches[3], device: "a")
        #expect(try await all(updater) == expected)
        // A new server on the same store resumes from the checkpoint.
        let restarted = TimelineUpdater(store: store, settings: .init(), logger: quiet)
        #expect(try await all(restarted) == expected)
    }

    /// Samples a little out of order (neighbours swapped, as concurrent requests deliver them) are
    /// put in order without a rebuild from the store; one older than the reorder window forces
    /// one rebuild; both give the offline timeline.
    static func samplesSlightlyOutOfOrderNeedNoRebuild(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        var samples = daySamples()
        let updater = TimelineUpdater(store: store, settings: .init(), logger: quiet)
        var arrival = samples
        for index in stride(from: 0, to: arrival.count - 1, by: 2) { arrival.swapAt(index, index + 1) }
        for sample in arrival {
            _ = try await store.insert([sample], device: "a", at: now)
            await updater.ingest([sample], device: "a")
        }
        #expect(await updater.rebuilds == 0)
        #expect(try await all(updater) == offline(samples))
        // Minute 1, at home: hours behind the newest sample.
        let late = TrackSample(
            key: "late", id: "late", seq: 10_000,
            values: SampleValues(time: day + .seconds(60), latitude: 31.2, longitude: 121.4, accuracy: 8),
            source: .native)
        _ = try await store.insert([late], device: "a", at: now)
        await updater.ingest([late], device: "a")
        #expect(await updater.rebuilds == 1)
        samples.insert(late, at: 1)
        #expect(try await all(updater) == offline(samples))
    }

    /// Points days apart in turn (a replaying or hostile client): each would force a rebuild
    /// from the store, re-reading every sample since; within the rebuild interval they are owed
    /// one rebuild, from the earliest, which a read runs. Still the offline timeline.
    static func stragglersInABurstCostOneRebuild(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        var samples = daySamples()
        let updater = TimelineUpdater(store: store, settings: .init(rebuildInterval: .seconds(3_600)), logger: quiet)
        _ = try await store.insert(samples, device: "a", at: now)
        await updater.ingest(samples, device: "a")
        #expect(await updater.rebuilds == 0)
        // Twenty stragglers, each hours behind the newest sample, one request at a time.
        for index in 0..<20 {
            let late = TrackSample(
                key: "late\(index)", id: "late\(index)", seq: Int64(10_000 + index),
                values: SampleValues(
                    time: day + .seconds(61 + Int64(index) * 120), latitude: 31.2, longitude: 121.4, accuracy: 8),
                source: .native)
            _ = try await store.insert([late], device: "a", at: now)
            await updater.ingest([late], device: "a")
            samples.append(late)
        }
        // The first ran at once (no rebuild before it); the others wait for the interval.
        #expect(await updater.rebuilds == 1)
        #expect(try await all(updater) == offline(samples))
        #expect(await updater.rebuilds == 2)
    }

    static func sample(_ key: String, minute: Int64) -> TrackSample {
        TrackSample(
            key: key, id: key, seq: minute,
            values: SampleValues(time: day + .seconds(minute * 60), latitude: 31.2, longitude: 121.4, accuracy: 8),
            source: .native)
    }

    /// Inserts mark the stretch the saved timeline may not cover, in their transaction: a live
    /// insert only where the checkpoint took a sample as new, an import always; a save clears the
    /// mark it read unless another insert marked it since (issue 38 item 1).
    static func insertsMarkWhatTheTimelineMustRedo(_ store: any TrackStore)
        async throws
    {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.insert([sample("s10", minute: 10)], device: "a", at: now)
        #expect(try await store.timelinePending(device: "a") == nil, "no checkpoint yet: loading reads it all")
        try await store.saveTimeline(
            device: "a", closed: [], checkpoint: "{}", newest: day + .seconds(600), replacingFrom: nil,
            resumePoints: [], consuming: nil)
        _ = try await store.insert([sample("s20", minute: 20)], device: "a", at: now)
        #expect(try await store.timelinePending(device: "a") == nil, "newer than the checkpoint: read on loading")
        _ = try await store.insert([sample("s10", minute: 10)], device: "a", at: now)
        #expect(try await store.timelinePending(device: "a") == nil, "a duplicate stores nothing")
        _ = try await store.insert([sample("s5", minute: 5)], device: "a", at: now)
        let first = try #require(try await store.timelinePending(device: "a"))
        #expect(first.from == day + .seconds(300))
        _ = try await store.commitImport(
            [sample("i30", minute: 30)], device: "a", checkpoint: ImportCheckpoint(fingerprint: "f", format: "GPX"),
            at: now)
        let second = try #require(try await store.timelinePending(device: "a"))
        #expect(second.from == day + .seconds(300) && second.version > first.version)
        // A save that read the first mark leaves the second; one that read the second clears it.
        try await store.saveTimeline(
            device: "a", closed: [], checkpoint: "{}", newest: day + .seconds(1800), replacingFrom: .epoch,
            resumePoints: [], consuming: first)
        #expect(try await store.timelinePending(device: "a") == second)
        try await store.saveTimeline(
            device: "a", closed: [], checkpoint: "{}", newest: day + .seconds(1800), replacingFrom: .epoch,
            resumePoints: [], consuming: second)
        #expect(try await store.timelinePending(device: "a") == nil)
        // An import newer than everything still marks: no updater was handed it.
        _ = try await store.commitImport(
            [sample("i40", minute: 40)], device: "a", checkpoint: ImportCheckpoint(fingerprint: "g", format: "GPX"),
            at: now)
        #expect(try await store.timelinePending(device: "a")?.from == day + .seconds(2400))
        #expect(try await store.timelinePending(device: "a")?.until == day + .seconds(2400))
        try await store.markTimelinePending(device: "a", from: day + .seconds(60), until: day + .seconds(120))
        #expect(try await store.timelinePending(device: "a")?.from == day + .seconds(60))
        // The stretch ends at the newest sample any mark covered.
        #expect(try await store.timelinePending(device: "a")?.until == day + .seconds(2400))
        try await store.markTimelinePending(device: "a", from: day + .seconds(90), until: day + .seconds(3000))
        #expect(try await store.timelinePending(device: "a")?.until == day + .seconds(3000))
        try await store.markTimelinePending(device: "nobody", from: day, until: day)
    }

    /// A rebuild that met the saved timeline again replaces only its stretch: entries that start
    /// before the cut and resume points before the point it met; later ones and the checkpoint stay.
    static func aStretchIsReplacedAndTheRestKept(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        func stay(_ minute: Int64) -> TimelineEntry {
            .stay(
                Stay(
                    start: day + .seconds(minute * 60), end: day + .seconds(minute * 60 + 600), latitude: 31.2,
                    longitude: 121.4, radius: 10, sampleCount: 5, inferred: false))
        }
        let points = [10, 20, 30, 40].map {
            TimelineCheckpoint(newest: day + .seconds($0 * 60), builder: "{\"m\":\($0)}")
        }
        try await store.saveTimeline(
            device: "a", closed: [stay(0), stay(15), stay(25), stay(35)], checkpoint: "{\"last\":1}",
            newest: day + .seconds(3000), replacingFrom: nil, resumePoints: points, consuming: nil)
        #expect(
            try await store.timelineResumePoints(device: "a", after: day + .seconds(1200), limit: 10) == Array(
                points[2...]) + [TimelineCheckpoint(newest: day + .seconds(3000), builder: "{\"last\":1}")])
        #expect(try await store.timelineResumePoints(device: "a", after: day, limit: 2) == Array(points[..<2]))
        let redone = TimelineCheckpoint(newest: day + .seconds(1260), builder: "{\"new\":1}")
        try await store.saveTimelineStretch(
            device: "a", closed: [stay(12)], from: day + .seconds(600), entriesBefore: day + .seconds(25 * 60),
            resumePointsBefore: day + .seconds(1800), resumePoints: [redone], consuming: nil)
        let entries = try await store.timelineEntries(device: "a", from: .epoch, to: day + .seconds(86_400))
        #expect(entries.map(\.start) == [0, 12, 25, 35].map { day + .seconds($0 * 60) })
        #expect(
            try await store.timelineResumePoints(device: "a", after: .epoch, limit: 10).map(\.newest)
                == [21, 30, 40, 50].map { day + .seconds($0 * 60) })
        #expect(try await store.timelineCheckpoint(device: "a") == "{\"last\":1}")
        await #expect(throws: TrackStoreError.self) {
            try await store.saveTimelineStretch(
                device: "nobody", closed: [], from: day, entriesBefore: day, resumePointsBefore: day, resumePoints: [],
                consuming: nil)
        }
    }

    /// Resume points: the latest before a time; a rebuild's save drops those from its start on.
    static func resumePointsAreKeptAndReplaced(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        #expect(try await store.timelineResumePoint(device: "a", before: day) == nil)
        let ten = TimelineCheckpoint(newest: day + .seconds(10), builder: "{\"ten\":1}")
        let twenty = TimelineCheckpoint(newest: day + .seconds(20), builder: "{\"twenty\":1}")
        try await store.saveTimeline(
            device: "a", closed: [], checkpoint: "{\"thirty\":1}", newest: day + .seconds(30), replacingFrom: nil,
            resumePoints: [ten, twenty], consuming: nil)
        #expect(try await store.timelineResumePoint(device: "a", before: day + .seconds(25)) == twenty)
        #expect(try await store.timelineResumePoint(device: "a", before: day + .seconds(20)) == ten)
        #expect(
            try await store.timelineResumePoint(device: "a", before: day + .seconds(31))?.builder == "{\"thirty\":1}")
        try await store.saveTimeline(
            device: "a", closed: [], checkpoint: "{\"x\":1}", newest: nil, replacingFrom: day + .seconds(15),
            resumePoints: [], consuming: nil)
        #expect(try await store.timelineResumePoint(device: "a", before: day + .seconds(100)) == ten)
        #expect(try await store.timelineResumePoint(device: "b", before: day + .seconds(100)) == nil)
    }

    /// The report's bugs on the store alone: history imported into a device an updater is serving,
    /// older than its live samples, reaches the next read, and a new updater's first read.
    static func anImportReachesTheNextReadAndARestart(_ store: any TrackStore)
        async throws
    {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        let samples = daySamples()
        let half = samples.count / 2
        let updater = TimelineUpdater(store: store, settings: .init(), logger: quiet)
        let live = Array(samples[half...])
        _ = try await store.insert(live, device: "a", at: now)
        await updater.ingest(live, device: "a")
        #expect(try await all(updater) == offline(live))
        _ = try await store.commitImport(
            Array(samples[..<half]), device: "a", checkpoint: ImportCheckpoint(fingerprint: "f", format: "GPX"), at: now
        )
        #expect(try await all(updater) == offline(samples))
        #expect(try await all(TimelineUpdater(store: store, settings: .init(), logger: quiet)) == offline(samples))
    }

    /// Overland, OwnTracks and OsmAnd give no reasons: their gaps stay gaps by default.
    static func otherClientsSilencesAreInferredUnlessTurnedOff(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        var samples: [TrackSample] = []
        for minute in Array(stride(from: Int64(0), to: 60, by: 2)) + Array(stride(from: Int64(240), to: 300, by: 2)) {
            samples.append(
                TrackSample(
                    key: "o\(minute)",
                    values: SampleValues(
                        time: day + .seconds(minute * 60), latitude: 31.2, longitude: 121.4, accuracy: 10),
                    source: .overland))
        }
        _ = try await store.insert(samples, device: "a", at: now)
        // Every path infers a stay across a same-place silence (issue 38 item 2) ...
        let updater = TimelineUpdater(store: store, settings: .init(), logger: quiet)
        await updater.ingest(samples, device: "a")
        #expect(try await all(updater).map(\.kind) == ["inferred-stay"])
        // ... unless the operator keeps other clients' silences gaps.
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        _ = try await store.insert(samples, device: "b", at: now)
        let strict = TimelineUpdater(store: store, settings: .init(infersStaysForOtherClients: false), logger: quiet)
        await strict.ingest(samples, device: "b")
        #expect(try await all(strict, device: "b").map(\.kind) == ["stay", "gap", "stay"])
        let native = samples.map { sample -> TrackSample in
            var copy = sample
            copy.source = .native
            return copy
        }
        #expect(offline(native).map(\.kind) == ["inferred-stay"])
    }
}

extension TimelineEntry {
    var kind: String {
        switch self {
        case .stay(let stay): stay.inferred ? "inferred-stay" : "stay"
        case .trip: "trip"
        case .gap: "gap"
        }
    }
}

enum TimelineStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqliteInMemory, sqliteOnDisk
    var testDescription: String { rawValue }

    func make() throws -> SQLiteTrackStore {
        switch self {
        case .sqliteInMemory:
            return try SQLiteTrackStore.inMemory()
        case .sqliteOnDisk:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("bgtrack-timeline-\(UUID().uuidString).sqlite").path
            return try SQLiteTrackStore(path: path)
        }
    }
}

@Suite("Timeline store contract: SQLite")
struct TimelineStoreContract {
    @Test(arguments: TimelineStoreKind.allCases)
    func entriesAndCheckpointRoundTrip(kind: TimelineStoreKind) async throws {
        try await TimelineContract.entriesAndCheckpointRoundTrip(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func anUnknownDeviceWritesNothing(kind: TimelineStoreKind) async throws {
        try await TimelineContract.anUnknownDeviceWritesNothing(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func samplesSlightlyOutOfOrderNeedNoRebuild(kind: TimelineStoreKind) async throws {
        try await TimelineContract.samplesSlightlyOutOfOrderNeedNoRebuild(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func stragglersInABurstCostOneRebuild(kind: TimelineStoreKind) async throws {
        try await TimelineContract.stragglersInABurstCostOneRebuild(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func theUpdaterMatchesTheOfflineTimeline(kind: TimelineStoreKind) async throws {
        try await TimelineContract.theUpdaterMatchesTheOfflineTimeline(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func otherClientsSilencesAreInferredUnlessTurnedOff(kind: TimelineStoreKind) async throws {
        try await TimelineContract.otherClientsSilencesAreInferredUnlessTurnedOff(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func insertsMarkWhatTheTimelineMustRedo(kind: TimelineStoreKind) async throws {
        try await TimelineContract.insertsMarkWhatTheTimelineMustRedo(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func aStretchIsReplacedAndTheRestKept(kind: TimelineStoreKind) async throws {
        try await TimelineContract.aStretchIsReplacedAndTheRestKept(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func resumePointsAreKeptAndReplaced(kind: TimelineStoreKind) async throws {
        try await TimelineContract.resumePointsAreKeptAndReplaced(kind.make())
    }

    @Test(arguments: TimelineStoreKind.allCases)
    func anImportReachesTheNextReadAndARestart(kind: TimelineStoreKind) async throws {
        try await TimelineContract.anImportReachesTheNextReadAndARestart(kind.make())
    }
}

@Suite("Timeline store contract: PostgreSQL")
struct PostgresTimelineStoreContract {
    @Test(.postgres) func entriesAndCheckpointRoundTrip() async throws {
        try await PostgresTestDatabase.withStore { try await TimelineContract.entriesAndCheckpointRoundTrip($0) }
    }

    @Test(.postgres) func anUnknownDeviceWritesNothing() async throws {
        try await PostgresTestDatabase.withStore { try await TimelineContract.anUnknownDeviceWritesNothing($0) }
    }

    @Test(.postgres) func samplesSlightlyOutOfOrderNeedNoRebuild() async throws {
        try await PostgresTestDatabase.withStore {
            try await TimelineContract.samplesSlightlyOutOfOrderNeedNoRebuild($0)
        }
    }

    @Test(.postgres) func stragglersInABurstCostOneRebuild() async throws {
        try await PostgresTestDatabase.withStore { try await TimelineContract.stragglersInABurstCostOneRebuild($0) }
    }

    @Test(.postgres) func theUpdaterMatchesTheOfflineTimeline() async throws {
        try await PostgresTestDatabase.withStore { try await TimelineContract.theUpdaterMatchesTheOfflineTimeline($0) }
    }

    @Test(.postgres) func otherClientsSilencesAreInferredUnlessTurnedOff() async throws {
        try await PostgresTestDatabase.withStore {
            try await TimelineContract.otherClientsSilencesAreInferredUnlessTurnedOff($0)
        }
    }

    @Test(.postgres) func insertsMarkWhatTheTimelineMustRedo() async throws {
        try await PostgresTestDatabase.withStore { try await TimelineContract.insertsMarkWhatTheTimelineMustRedo($0) }
    }

    @Test(.postgres) func aStretchIsReplacedAndTheRestKept() async throws {
        try await PostgresTestDatabase.withStore { try await TimelineContract.aStretchIsReplacedAndTheRestKept($0) }
    }

    @Test(.postgres) func resumePointsAreKeptAndReplaced() async throws {
        try await PostgresTestDatabase.withStore { try await TimelineContract.resumePointsAreKeptAndReplaced($0) }
    }

    @Test(.postgres) func anImportReachesTheNextReadAndARestart() async throws {
        try await PostgresTestDatabase.withStore {
            try await TimelineContract.anImportReachesTheNextReadAndARestart($0)
        }
    }
}
