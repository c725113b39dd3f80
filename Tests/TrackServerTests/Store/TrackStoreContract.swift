import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackGeometry
import TrackServer

/// The contract every ``TrackStore`` must meet: each check gets a fresh, empty store. The suites
/// below run every check on SQLite (in memory and on disk) and on PostgreSQL.
enum StoreContract {
    static let now = Instant(milliseconds: 1_732_244_800_000)

    static func sample(_ key: String, at seconds: Int64, lat: Double = 31.2) -> TrackSample {
        TrackSample(
            key: key, id: key, seq: 1,
            values: SampleValues(
                time: Instant(milliseconds: 1_732_240_000_000 + seconds * 1000), latitude: lat, longitude: 121.4,
                accuracy: 5), source: .native)
    }

    static func devicesAreUniqueByName(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "h1", at: now)
        await #expect(throws: TrackStoreError.duplicateName("a")) {
            _ = try await store.addDevice(name: "a", tokenHash: "h2", at: now)
        }
        #expect(try await store.devices().map(\.name) == ["a"])
    }

    static func tokenOwnersAndRevocation(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "device", at: now)
        try await store.addOperator(name: "ops", tokenHash: "operator", at: now)
        try await store.createSession(
            device: "a", tokenHash: "session", expiresAt: now + .seconds(60), at: now)
        #expect(try await store.owner(ofTokenHash: "device", at: now) == .device("a"))
        #expect(try await store.owner(ofTokenHash: "operator", at: now) == .operator("ops"))
        #expect(
            try await store.owner(ofTokenHash: "session", at: now) == .session(device: "a", tokenHash: "session"))
        #expect(try await store.owner(ofTokenHash: "session", at: now + .seconds(61)) == nil)
        #expect(try await store.revokeDevice(named: "a", at: now))
        #expect(try await store.owner(ofTokenHash: "device", at: now) == nil)
        #expect(try await store.owner(ofTokenHash: "session", at: now) == nil)
        #expect(try await store.session(tokenHash: "session")?.revokedAt == now)
        #expect(try await store.revokeDevice(named: "a", at: now) == false)
    }

    static func sessionsExtendAndRevoke(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "device", at: now)
        try await store.createSession(device: "a", tokenHash: "s", expiresAt: now + .seconds(60), at: now)
        try await store.extendSession(tokenHash: "s", to: now + .seconds(600), at: now + .seconds(30))
        #expect(try await store.session(tokenHash: "s")?.expiresAt == now + .seconds(600))
        #expect(try await store.device(named: "a")?.lastSeenAt == now + .seconds(30))
        try await store.revokeSession(tokenHash: "s", at: now + .seconds(40))
        #expect(try await store.owner(ofTokenHash: "s", at: now + .seconds(41)) == nil)
    }

    static func insertIsIdempotentPerDeviceByKey(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        let first = try await store.insert(
            [sample("k1", at: 0), sample("k2", at: 60)], device: "a", at: now)
        #expect(first == InsertOutcome(accepted: ["k1", "k2"], duplicates: []))
        let again = try await store.insert(
            [sample("k2", at: 60), sample("k3", at: 120)], device: "a", at: now)
        #expect(again == InsertOutcome(accepted: ["k3"], duplicates: ["k2"]))
        let other = try await store.insert([sample("k1", at: 0)], device: "b", at: now)
        #expect(other.accepted == ["k1"])  // keys are per device
        #expect(try await store.device(named: "a")?.sampleCount == 3)
        #expect(try await store.device(named: "a")?.lastSeenAt == now)
    }

    static func samplesComeBackInTimeOrderWithinTheRange(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        var original = sample("late", at: 300, lat: 31.3)
        original.speed = 1.5
        original.charging = true
        original.trigger = "visit"
        _ = try await store.insert(
            [original, sample("early", at: 0), sample("mid", at: 120)], device: "a", at: now)
        let start = Instant(milliseconds: 1_732_240_000_000)
        let all = try await store.samples(device: "a", from: start, to: start + .seconds(301))
        #expect(all.map(\.key) == ["early", "mid", "late"])
        #expect(all.last == original)
        let window = try await store.samples(device: "a", from: start + .seconds(1), to: start + .seconds(300))
        #expect(window.map(\.key) == ["mid"])
    }

    static func aLimitReturnsOnlyTheEarliestSamples(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.insert(
            [sample("late", at: 300), sample("early", at: 0), sample("mid", at: 120)], device: "a",
            at: now)
        let start = Instant(milliseconds: 1_732_240_000_000)
        let two = try await store.samples(device: "a", from: start, to: start + .seconds(301), limit: 2)
        #expect(two.map(\.key) == ["early", "mid"])
        #expect(try await store.samples(device: "a", from: start, to: start + .seconds(301), limit: 0).isEmpty)
        #expect(try await store.samples(device: "a", from: start, to: start + .seconds(301), limit: 5).count == 3)
    }

    static func unknownOrRevokedDeviceWritesNothing(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        await #expect(throws: TrackStoreError.unknownDevice("nobody")) {
            _ = try await store.insert([sample("k", at: 0)], device: "nobody", at: now)
        }
        _ = try await store.revokeDevice(named: "a", at: now)
        await #expect(throws: TrackStoreError.unknownDevice("a")) {
            _ = try await store.insert([sample("k", at: 0)], device: "a", at: now)
        }
        #expect(try await store.device(named: "a")?.sampleCount == 0)
    }

    static func eventsAreKeptPerDevice(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        try await store.recordEvent(device: "a", type: "owntracks.card", json: "{}", at: now)
        #expect(try await store.eventCount(device: "a") == 1)
        #expect(try await store.eventCount(device: "b") == 0)
    }

    static func operatorsAreListedAndRevoked(_ store: any TrackStore) async throws {
        try await store.addOperator(name: "ops", tokenHash: "o1", at: now)
        try await store.addOperator(name: "alice", tokenHash: "o2", at: now)
        await #expect(throws: TrackStoreError.duplicateName("ops")) {
            try await store.addOperator(name: "ops", tokenHash: "o3", at: now)
        }
        #expect(try await store.revokeOperator(named: "ops", at: now + .seconds(5)))
        #expect(try await store.revokeOperator(named: "ops", at: now + .seconds(6)) == false)
        #expect(try await store.revokeOperator(named: "nobody", at: now) == false)
        #expect(
            try await store.operators() == [
                OperatorRecord(name: "alice", createdAt: now, revokedAt: nil),
                OperatorRecord(name: "ops", createdAt: now, revokedAt: now + .seconds(5)),
            ])
        #expect(try await store.owner(ofTokenHash: "o1", at: now + .seconds(6)) == nil)
        #expect(try await store.owner(ofTokenHash: "o2", at: now + .seconds(6)) == .operator("alice"))
    }

    static func quarantineKeepsRejectedPointsNewestFirst(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        try await store.quarantine(device: "a", source: .owntracks, reason: "first", raw: "r1", at: now)
        let long = String(repeating: "x", count: 5000)
        try await store.quarantine(device: "a", source: .osmand, reason: "second", raw: long, at: now + .seconds(1))
        await #expect(throws: TrackStoreError.unknownDevice("nobody")) {
            try await store.quarantine(device: "nobody", source: .osmand, reason: "r", raw: "", at: now)
        }
        let points = try await store.rejectedPoints(device: "a", limit: 10)
        #expect(points.map(\.reason) == ["second", "first"])
        #expect(points.first?.raw.count == 4096)
        #expect(points.first?.source == "osmand")
        #expect(points.last?.receivedAt == now.milliseconds)
        #expect(try await store.rejectedPoints(device: "a", limit: 1).count == 1)
        #expect(try await store.rejectedPoints(device: "nobody", limit: 10).isEmpty)
        #expect(try await store.device(named: "a")?.rejectedCount == 2)
        #expect(try await store.device(named: "a")?.lastSeenAt == now + .seconds(1))
    }

    static func alertsQueueUntilDelivered(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        #expect(try await store.setSilentAfter(device: "a", .seconds(2100)))
        #expect(try await store.setSilentAfter(device: "nobody", .seconds(60)) == false)
        #expect(try await store.device(named: "a")?.silentAfter == .seconds(2100))
        let deliveries = [
            AlertDelivery(target: "webhook http://127.0.0.1:9/h", json: #"{"silent":true}"#),
            AlertDelivery(target: "command true", json: #"{"silent":true}"#),
        ]
        try await store.recordAlert(device: "a", silentSince: now, deliveries: deliveries, at: now)
        #expect(try await store.device(named: "a")?.silentSince == now)
        let due = try await store.dueAlerts(at: now, limit: 10)
        #expect(due.map(\.delivery) == deliveries)
        #expect(due.map(\.attempts) == [0, 0])
        let (first, second) = (try #require(due.first), try #require(due.last))
        try await store.alertDelivered(id: first.id)
        try await store.alertFailed(id: second.id, error: "refused", retryAt: now + .seconds(30))
        #expect(try await store.dueAlerts(at: now + .seconds(29), limit: 10).isEmpty)
        let retried = try await store.dueAlerts(at: now + .seconds(30), limit: 10)
        #expect(retried.map(\.id) == [second.id])
        #expect(retried.first?.attempts == 1)
        // Heard from again: the silence ends, and one more delivery is queued.
        try await store.recordAlert(device: "a", silentSince: nil, deliveries: [deliveries[0]], at: now)
        #expect(try await store.device(named: "a")?.silentSince == nil)
        #expect(try await store.dueAlerts(at: now + .seconds(30), limit: 10).count == 2)
        #expect(try await store.dueAlerts(at: now + .seconds(30), limit: 1).count == 1)
        // Setting the threshold back to the server's default.
        #expect(try await store.setSilentAfter(device: "a", nil))
        #expect(try await store.device(named: "a")?.silentAfter == nil)
    }

    static func aGroupStoresEachRequestAlone(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        let later = now + .seconds(10)
        let results = try await store.insertGroup([
            GroupInsert(samples: [sample("k1", at: 0), sample("k2", at: 1)], device: "a", now: now),
            GroupInsert(samples: [sample("k2", at: 1), sample("k3", at: 2)], device: "a", now: later),
            GroupInsert(samples: [sample("k9", at: 9)], device: "nobody", now: now),
            GroupInsert(samples: [sample("k1", at: 0)], device: "b", now: now),
        ])
        #expect(results.count == 4)
        #expect(try results[0].get() == InsertOutcome(accepted: ["k1", "k2"], duplicates: []))
        #expect(try results[1].get() == InsertOutcome(accepted: ["k3"], duplicates: ["k2"]))
        #expect(throws: TrackStoreError.unknownDevice("nobody")) { try results[2].get() }
        #expect(try results[3].get() == InsertOutcome(accepted: ["k1"], duplicates: []))
        #expect(try await store.device(named: "a")?.sampleCount == 3)
        #expect(try await store.device(named: "a")?.lastSeenAt == later)
        #expect(try await store.device(named: "b")?.sampleCount == 1)
        let alone = try await store.insertGroup([GroupInsert(samples: [sample("k4", at: 4)], device: "a", now: now)])
        #expect(try alone[0].get() == InsertOutcome(accepted: ["k4"], duplicates: []))
    }

    static func aKeyRepeatedInOneBatchIsStoredOnce(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        let first = sample("k", at: 0, lat: 31.2)
        let outcome = try await store.insert(
            [first, sample("j", at: 1), sample("k", at: 5, lat: 40)], device: "a", at: now)
        #expect(outcome == InsertOutcome(accepted: ["k", "j"], duplicates: ["k"]))
        let stored = try await store.samples(device: "a", from: .epoch, to: now)
        #expect(stored.map(\.key) == ["k", "j"])
        #expect(stored.first == first, "the first of equal keys is the one kept")
    }

    /// A range read page by page is the range read at once, in (time, row) order, however small
    /// the pages (two samples of one time split across pages included); counts stop at their bound,
    /// and the segment count is the number of ``Gaps`` segments.
    static func pagesCountsAndSegmentsOfARange(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        let seconds: [Int64] = [0, 60, 120, 120, 120, 180, 2_000, 2_060, 5_000]
        _ = try await store.insert(
            seconds.enumerated().map { sample("s\($0.offset)", at: $0.element, lat: 31 + Double($0.offset) / 100) },
            device: "a", at: now)
        _ = try await store.insert([sample("other", at: 60)], device: "b", at: now)
        let start = Instant(milliseconds: 1_732_240_000_000)
        let end = start + .seconds(5_001)
        let whole = try await store.samples(device: "a", from: start, to: end).map(\.values)
        #expect(whole.count == seconds.count)
        #expect(whole.allSatisfy { $0.accuracy != nil }, "the samples carry measurements for .positions to leave out")
        for size in [1, 2, 3, 4, 100] {
            for content in [TrackPage.Content.record, .positions] {
                var after: TrackPageKey?
                var read: [SampleValues] = []
                var pages = 0
                repeat {
                    let page = try await store.trackPage(
                        device: "a", from: start, to: end, after: after, limit: size, content: content)
                    #expect(page.points.count <= size)
                    read += page.points
                    after = page.next
                    pages += 1
                } while after != nil && pages < 100
                #expect(
                    read == (content == .record ? whole : whole.map(\.positionOnly)), "pages of \(size), \(content)")
            }
        }
        let inner = try await store.trackPage(
            device: "a", from: start + .seconds(60), to: start + .seconds(2_000), after: nil, limit: 100)
        #expect(inner.points.map(\.time) == whole[1...5].map(\.time) && inner.next == nil)
        #expect(try await store.trackPage(device: "nobody", from: start, to: end, after: nil, limit: 5).points.isEmpty)
        #expect(try await store.sampleCount(device: "a", from: start, to: end, atMost: 100) == 9)
        #expect(try await store.sampleCount(device: "a", from: start, to: end, atMost: 4) == 4)
        #expect(try await store.sampleCount(device: "a", from: start, to: start + .seconds(121), atMost: 100) == 5)
        #expect(try await store.sampleCount(device: "nobody", from: start, to: end, atMost: 100) == 0)
        // Gaps over 600 s: 180 → 2,000 and 2,060 → 5,000, so three segments.
        #expect(try await store.segmentCount(device: "a", from: start, to: end, maximumGap: .seconds(600)) == 3)
        // Over 59 s: every step but the three 0 s ones.
        #expect(try await store.segmentCount(device: "a", from: start, to: end, maximumGap: .seconds(59)) == 7)
        #expect(
            try await store.segmentCount(device: "a", from: end, to: end + .seconds(9), maximumGap: .seconds(60)) == 0)
        #expect(
            try await store.segmentCount(device: "a", from: start, to: end, maximumGap: .seconds(600))
                == Gaps.segments(of: whole, maximumGap: .seconds(600)).count)
    }

    static func aTallyCountsRowsAndDistinctTimesInTheRange(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        // "twin" shares its time with "mid": two rows, one distinct time.
        _ = try await store.insert(
            [
                sample("early", at: 0), sample("mid", at: 120), sample("twin", at: 120, lat: 31.3),
                sample("late", at: 300),
            ],
            device: "a", at: now)
        _ = try await store.insert([sample("other", at: 0)], device: "b", at: now)
        let start = Instant(milliseconds: 1_732_240_000_000)
        #expect(
            try await store.sampleTally(device: "a", from: start, to: start + .seconds(301))
                == SampleTally(rows: 4, distinctTimes: 3))
        #expect(
            try await store.sampleTally(device: "a", from: start + .seconds(1), to: start + .seconds(300))
                == SampleTally(rows: 2, distinctTimes: 1))
        #expect(
            try await store.sampleTally(device: "nobody", from: start, to: start + .seconds(301))
                == SampleTally(rows: 0, distinctTimes: 0))
    }

    /// The device list's counts are kept by the writes (issue 23: `/healthz`, `/metrics` and the
    /// pages must not count every sample), so every write path must keep them right.
    static func deviceCountsAreKeptByEveryWritePath(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        _ = try await store.insert([sample("k1", at: 0), sample("k2", at: 60)], device: "a", at: now)
        _ = try await store.insert([sample("k2", at: 60), sample("k3", at: 120)], device: "a", at: now)
        let group = try await store.insertGroup([
            GroupInsert(samples: [sample("k4", at: 180), sample("k1", at: 0)], device: "a", now: now),
            GroupInsert(samples: [sample("x", at: 0)], device: "nobody", now: now),
            GroupInsert(samples: [sample("m1", at: 0), sample("m1", at: 0)], device: "b", now: now),
        ])
        #expect(group.count == 3)
        _ = try await store.insertGroup([GroupInsert(samples: [sample("k5", at: 240)], device: "a", now: now)])
        try await store.quarantine(device: "a", source: .owntracks, reason: "r1", raw: "{}", at: now)
        try await store.quarantine(device: "a", source: .osmand, reason: "r2", raw: "", at: now)
        let start = Instant(milliseconds: 0)
        let end = Instant(milliseconds: Int64.max / 2)
        for (name, samples, rejected) in [("a", 5, 2), ("b", 1, 0)] {
            let device = try #require(try await store.device(named: name))
            #expect(device.sampleCount == samples, "\(name)")
            #expect(device.rejectedCount == rejected, "\(name)")
            #expect(try await store.sampleTally(device: name, from: start, to: end).rows == samples)
        }
        #expect(try await store.devices().map(\.sampleCount) == [5, 1])
    }

    static func anOwnTracksKeyIsKeptPerDevice(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        #expect(try await store.ownTracksKey(device: "a") == nil)
        let key = try OwnTracksKey(secret: "s3cret")
        #expect(try await store.setOwnTracksKey(device: "a", key))
        #expect(try await store.ownTracksKey(device: "a") == key)
        #expect(try await store.ownTracksKey(device: "b") == nil)
        #expect(try await store.setOwnTracksKey(device: "nobody", key) == false)
        #expect(try await store.ownTracksKey(device: "nobody") == nil)
        #expect(try await store.setOwnTracksKey(device: "a", nil))
        #expect(try await store.ownTracksKey(device: "a") == nil)
    }

    /// Every field of the record is written and read back as it was, by the sample reads, the
    /// track pages and the drawn pages: the stores map the record from its `Field` list.
    static func everyFieldOfTheRecordRoundTrips(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        // Every optional field set, each to a value of its own, from the record's field list: a
        // field added to the record is checked here without editing this test.
        var full = SampleValues(time: Instant(milliseconds: 1_732_240_000_123), latitude: 31.2304, longitude: 121.4737)
        for (place, field) in SampleValues.Field.afterPosition.enumerated() {
            full.setMeasurement(field, 0.125 * Double(place + 1))
            full.setFlag(field, place % 2 == 0)
        }
        #expect(SampleValues.Field.afterPosition.allSatisfy { full.measurement($0) != nil || full.flag($0) != nil })
        let bare = SampleValues(time: full.time + .seconds(60), latitude: 31.2, longitude: 121.4)
        let samples = [
            TrackSample(
                key: "full", id: "full", seq: 7, values: full, trigger: "timer", state: "background", source: .native),
            TrackSample.positioned(bare, source: .overland),
        ]
        _ = try await store.insert(samples, device: "a", at: now)
        let read = try await store.samples(device: "a", from: .epoch, to: now)
        #expect(read == samples)
        let page = try await store.trackPage(device: "a", from: .epoch, to: now, after: nil, limit: 10)
        #expect(page.points == [full, bare])
    }

    static func largeBatchesKeepEverySample(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        // More rows than one statement holds in the PostgreSQL store (1,000).
        let batch = (0..<2_500).map { sample("k\($0)", at: Int64($0)) }
        #expect(try await store.insert(batch, device: "a", at: now).accepted.count == 2_500)
        let again = try await store.insert(Array(batch[2_000...]) + [sample("new", at: 9_999)], device: "a", at: now)
        #expect(again.accepted == ["new"])
        #expect(again.duplicates.count == 500)
        #expect(try await store.device(named: "a")?.sampleCount == 2_501)
    }
}

/// Which SQLite store a SQLite contract test runs on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqliteInMemory, sqliteOnDisk

    var testDescription: String { rawValue }

    func make() throws -> any TrackStore {
        switch self {
        case .sqliteInMemory:
            return try SQLiteTrackStore.inMemory()
        case .sqliteOnDisk:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("bgtrack-contract-\(UUID().uuidString).sqlite").path
            return try SQLiteTrackStore(path: path)
        }
    }
}

@Suite("TrackStore contract: SQLite")
struct TrackStoreContract {
    @Test(arguments: StoreKind.allCases)
    func devicesAreUniqueByName(kind: StoreKind) async throws {
        try await StoreContract.devicesAreUniqueByName(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func tokenOwnersAndRevocation(kind: StoreKind) async throws {
        try await StoreContract.tokenOwnersAndRevocation(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func sessionsExtendAndRevoke(kind: StoreKind) async throws {
        try await StoreContract.sessionsExtendAndRevoke(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func insertIsIdempotentPerDeviceByKey(kind: StoreKind) async throws {
        try await StoreContract.insertIsIdempotentPerDeviceByKey(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func samplesComeBackInTimeOrderWithinTheRange(kind: StoreKind) async throws {
        try await StoreContract.samplesComeBackInTimeOrderWithinTheRange(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func aLimitReturnsOnlyTheEarliestSamples(kind: StoreKind) async throws {
        try await StoreContract.aLimitReturnsOnlyTheEarliestSamples(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func unknownOrRevokedDeviceWritesNothing(kind: StoreKind) async throws {
        try await StoreContract.unknownOrRevokedDeviceWritesNothing(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func eventsAreKeptPerDevice(kind: StoreKind) async throws {
        try await StoreContract.eventsAreKeptPerDevice(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func operatorsAreListedAndRevoked(kind: StoreKind) async throws {
        try await StoreContract.operatorsAreListedAndRevoked(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func quarantineKeepsRejectedPointsNewestFirst(kind: StoreKind) async throws {
        try await StoreContract.quarantineKeepsRejectedPointsNewestFirst(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func alertsQueueUntilDelivered(kind: StoreKind) async throws {
        try await StoreContract.alertsQueueUntilDelivered(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func aGroupStoresEachRequestAlone(kind: StoreKind) async throws {
        try await StoreContract.aGroupStoresEachRequestAlone(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func aKeyRepeatedInOneBatchIsStoredOnce(kind: StoreKind) async throws {
        try await StoreContract.aKeyRepeatedInOneBatchIsStoredOnce(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func pagesCountsAndSegmentsOfARange(kind: StoreKind) async throws {
        try await StoreContract.pagesCountsAndSegmentsOfARange(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func aTallyCountsRowsAndDistinctTimesInTheRange(kind: StoreKind) async throws {
        try await StoreContract.aTallyCountsRowsAndDistinctTimesInTheRange(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func deviceCountsAreKeptByEveryWritePath(kind: StoreKind) async throws {
        try await StoreContract.deviceCountsAreKeptByEveryWritePath(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func anOwnTracksKeyIsKeptPerDevice(kind: StoreKind) async throws {
        try await StoreContract.anOwnTracksKeyIsKeptPerDevice(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func everyFieldOfTheRecordRoundTrips(kind: StoreKind) async throws {
        try await StoreContract.everyFieldOfTheRecordRoundTrips(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func largeBatchesKeepEverySample(kind: StoreKind) async throws {
        try await StoreContract.largeBatchesKeepEverySample(kind.make())
    }
}

/// The same checks on PostgreSQL, each in a fresh schema of its own; skipped (not passed) when
/// `BGTRACK_TEST_POSTGRES_URL` is unset.
@Suite("TrackStore contract: PostgreSQL")
struct PostgresStoreContract {
    @Test(.postgres) func devicesAreUniqueByName() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.devicesAreUniqueByName($0) }
    }

    @Test(.postgres) func tokenOwnersAndRevocation() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.tokenOwnersAndRevocation($0) }
    }

    @Test(.postgres) func sessionsExtendAndRevoke() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.sessionsExtendAndRevoke($0) }
    }

    @Test(.postgres) func insertIsIdempotentPerDeviceByKey() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.insertIsIdempotentPerDeviceByKey($0) }
    }

    @Test(.postgres) func samplesComeBackInTimeOrderWithinTheRange() async throws {
        try await PostgresTestDatabase.withStore {
            try await StoreContract.samplesComeBackInTimeOrderWithinTheRange($0)
        }
    }

    @Test(.postgres) func aLimitReturnsOnlyTheEarliestSamples() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.aLimitReturnsOnlyTheEarliestSamples($0) }
    }

    @Test(.postgres) func unknownOrRevokedDeviceWritesNothing() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.unknownOrRevokedDeviceWritesNothing($0) }
    }

    @Test(.postgres) func eventsAreKeptPerDevice() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.eventsAreKeptPerDevice($0) }
    }

    @Test(.postgres) func operatorsAreListedAndRevoked() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.operatorsAreListedAndRevoked($0) }
    }

    @Test(.postgres) func quarantineKeepsRejectedPointsNewestFirst() async throws {
        try await PostgresTestDatabase.withStore {
            try await StoreContract.quarantineKeepsRejectedPointsNewestFirst($0)
        }
    }

    @Test(.postgres) func alertsQueueUntilDelivered() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.alertsQueueUntilDelivered($0) }
    }

    @Test(.postgres) func aGroupStoresEachRequestAlone() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.aGroupStoresEachRequestAlone($0) }
    }

    @Test(.postgres) func aKeyRepeatedInOneBatchIsStoredOnce() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.aKeyRepeatedInOneBatchIsStoredOnce($0) }
    }

    @Test(.postgres) func pagesCountsAndSegmentsOfARange() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.pagesCountsAndSegmentsOfARange($0) }
    }

    @Test(.postgres) func aTallyCountsRowsAndDistinctTimesInTheRange() async throws {
        try await PostgresTestDatabase.withStore {
            try await StoreContract.aTallyCountsRowsAndDistinctTimesInTheRange($0)
        }
    }

    @Test(.postgres) func deviceCountsAreKeptByEveryWritePath() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.deviceCountsAreKeptByEveryWritePath($0) }
    }

    @Test(.postgres) func anOwnTracksKeyIsKeptPerDevice() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.anOwnTracksKeyIsKeptPerDevice($0) }
    }

    @Test(.postgres) func everyFieldOfTheRecordRoundTrips() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.everyFieldOfTheRecordRoundTrips($0) }
    }

    @Test(.postgres) func largeBatchesKeepEverySample() async throws {
        try await PostgresTestDatabase.withStore { try await StoreContract.largeBatchesKeepEverySample($0) }
    }
}

/// What the server's SQLite promises for an acknowledged upload.
@Suite struct ServerDurabilityTests {
    @Test(arguments: [(Durability.powerLoss, 2), (.processCrash, 1)])
    func durabilityReachesSQLite(durability: Durability, level: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteTrackStore(
            path: directory.appendingPathComponent("t.sqlite").path, durability: durability)
        #expect(try await store.synchronousLevel() == level)
        // Still so after writes (the pool's one writer connection keeps it).
        _ = try await store.addDevice(name: "p", tokenHash: "h", at: Instant(milliseconds: 0))
        #expect(try await store.synchronousLevel() == level)
    }

    @Test func theDefaultSurvivesAPowerCut() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteTrackStore(path: directory.appendingPathComponent("t.sqlite").path)
        #expect(try await store.synchronousLevel() == 2, "FULL: every acknowledged batch is fsynced")
    }
}
