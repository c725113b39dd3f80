import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackGeometry
import TrackServer

/// Share links, retention and erasure: the contract both stores meet (issue 25 items 3 and 4).
enum LifecycleContract {
    static let now = StoreContract.now

    static func shareLinksRoundTrip(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        let range = ShareKind.range(from: now - .seconds(86_400), to: now)
        let live = try await store.createShare(
            NewShareLink(device: "a", kind: .live, secretHash: "s1", expiresAt: now + .seconds(60), createdBy: "cli"),
            at: now)
        let day = try await store.createShare(
            NewShareLink(device: "b", kind: range, secretHash: "s2", expiresAt: now + .seconds(600), createdBy: "ops"),
            at: now)
        #expect(live.id != day.id)
        #expect(try await store.share(secretHash: "s1") == live)
        #expect(try await store.share(secretHash: "s2")?.kind == range)
        #expect(try await store.share(secretHash: "nope") == nil)
        #expect(try await store.shares(device: nil).map(\.id) == [day.id, live.id], "newest first")
        #expect(try await store.shares(device: "a").map(\.id) == [live.id])
        try await store.countShareView(id: live.id, at: now + .seconds(5))
        try await store.countShareView(id: live.id, at: now + .seconds(9))
        let viewed = try #require(try await store.share(secretHash: "s1"))
        #expect(viewed.views == 2)
        #expect(viewed.lastViewedAt == now + .seconds(9))
        #expect(viewed.state(at: now + .seconds(59)) == .active)
        #expect(viewed.state(at: now + .seconds(60)) == .expired)
        #expect(try await store.revokeShare(id: live.id, at: now + .seconds(10)))
        #expect(try await store.revokeShare(id: live.id, at: now + .seconds(11)) == false, "already revoked")
        #expect(try await store.revokeShare(id: 987_654, at: now) == false)
        #expect(try await store.share(secretHash: "s1")?.state(at: now + .seconds(10)) == .revoked)
        await #expect(throws: TrackStoreError.unknownDevice("nobody")) {
            _ = try await store.createShare(
                NewShareLink(device: "nobody", kind: .live, secretHash: "s3", expiresAt: now, createdBy: "x"), at: now)
        }
    }

    /// Revoking a device ends its share links (issue 41 item 4); another device's stay active.
    static func revokingADeviceEndsItsShareLinks(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        for (device, secret) in [("a", "s1"), ("a", "s2"), ("b", "s3")] {
            _ = try await store.createShare(
                NewShareLink(
                    device: device, kind: .live, secretHash: secret, expiresAt: now + .seconds(600), createdBy: "ops"),
                at: now)
        }
        #expect(try await store.revokeDevice(named: "a", at: now + .seconds(5)))
        #expect(try await store.share(secretHash: "s1")?.state(at: now + .seconds(5)) == .revoked)
        #expect(try await store.share(secretHash: "s2")?.revokedAt == now + .seconds(5))
        #expect(try await store.share(secretHash: "s3")?.state(at: now + .seconds(5)) == .active)
    }

    static func retentionSweepsInBatchesAndKeepsTallies(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        #expect(try await store.retentions().isEmpty, "forever by default")
        #expect(try await store.setRetention(device: "a", .seconds(30 * 86_400)))
        #expect(try await store.setRetention(device: "nobody", .seconds(86_400)) == false)
        #expect(try await store.retentions() == ["a": .seconds(30 * 86_400)])
        // Samples at 0, 60, …, 540 s.
        let samples = (0..<10).map { StoreContract.sample("k\($0)", at: Int64($0) * 60) }
        _ = try await store.insert(samples, device: "a", at: now)
        _ = try await store.insert(samples, device: "b", at: now)
        try await store.quarantine(device: "a", source: .osmand, reason: "r", raw: "x", at: now - .seconds(10))
        try await store.recordEvent(device: "a", type: "t", json: "{}", at: now - .seconds(10))
        let cutoff = samples[7].time  // 7 samples are older
        let first = try await store.sweep(device: "a", before: cutoff, limit: 4)
        #expect(first["sample"] == 4)
        let second = try await store.sweep(device: "a", before: cutoff, limit: 4)
        #expect(second["sample"] == 3)
        #expect(
            try await store.samples(device: "a", from: .init(milliseconds: 0), to: now).map(\.key) == [
                "k7", "k8", "k9",
            ])
        #expect(try await store.device(named: "a")?.sampleCount == 3, "the tally follows the deletions")
        #expect(try await store.device(named: "b")?.sampleCount == 10, "another device is untouched")
        // Events and quarantine are judged by when they arrived.
        let early = try await store.sweep(device: "a", before: now - .seconds(11), limit: 10)
        #expect(early["event"] == 0 && early["rejected_point"] == 0)
        #expect(early["sample"] == 3, "the samples left are older than that")
        let late = try await store.sweep(device: "a", before: now, limit: 10)
        #expect(late["event"] == 1 && late["rejected_point"] == 1)
        #expect(try await store.device(named: "a")?.rejectedCount == 0)
        #expect(try await store.eventCount(device: "a") == 0)
        #expect(try await store.setRetention(device: "a", nil))
        #expect(try await store.retentions().isEmpty)
        #expect(try await store.sweep(device: "nobody", before: now, limit: 10).isEmpty)
    }

    /// Erases one device of two: its rows are gone from every table, the other's are all there.
    static func erasureRemovesOnlyTheDevice(_ store: any TrackStore) async throws {
        for name in ["gone", "kept"] {
            _ = try await store.addDevice(name: name, tokenHash: "h-\(name)", at: now)
            try await fill(store, device: name)
        }
        let before = try await store.deviceRowCounts(device: "gone")
        let kept = try await store.deviceRowCounts(device: "kept")
        #expect(before == kept)
        for table in DeviceData.tables + [DeviceData.alertOutbox, DeviceData.deviceRow] {
            #expect((before[table] ?? 0) > 0, "the fixture fills \(table)")
        }
        let deleted = try #require(try await store.eraseDevice(named: "gone"))
        #expect(deleted == before)
        #expect(try await store.device(named: "gone") == nil)
        #expect(try await store.deviceRowCounts(device: "gone").isEmpty)
        #expect(try await store.eraseDevice(named: "gone") == nil, "a second erase finds nothing")
        #expect(try await store.deviceRowCounts(device: "kept") == kept)
        #expect(try await store.owner(ofTokenHash: "h-gone", at: now) == nil)
        #expect(try await store.dueAlerts(at: now + .seconds(3600), limit: 10).count == 1, "kept's alert stays")
        // The name is free again: a new device of that name starts empty.
        _ = try await store.addDevice(name: "gone", tokenHash: "h-new", at: now)
        #expect(try await store.samples(device: "gone", from: .init(milliseconds: 0), to: now + .seconds(1)).isEmpty)
    }

    /// A row of the device in every table of ``DeviceData/tables`` and the alert outbox.
    static func fill(_ store: any TrackStore, device: String) async throws {
        _ = try await store.insert(
            (0..<5).map { StoreContract.sample("\(device)-\($0)", at: Int64($0) * 60) }, device: device, at: now)
        try await store.recordEvent(device: device, type: "trip", json: "{}", at: now)
        try await store.quarantine(device: device, source: .osmand, reason: "bad", raw: "lat=x", at: now)
        try await store.createSession(
            device: device, tokenHash: "session-\(device)", expiresAt: now + .seconds(60), at: now)
        let event = #"{"device":"\#(device)","kind":"silent"}"#
        try await store.recordAlert(
            device: device, silentSince: now, deliveries: [AlertDelivery(target: "webhook http://x", json: event)],
            at: now)
        _ = try await store.createShare(
            NewShareLink(
                device: device, kind: .live, secretHash: "share-\(device)", expiresAt: now + .seconds(60),
                createdBy: "cli"),
            at: now)
        try await store.insertGaps(
            [
                IngestGap(
                    id: "gap-\(device)", interval: GapInterval(start: now - .seconds(600), end: now, reason: .suspended)
                )
            ],
            device: device, at: now)
        try await store.noteTimeZone(device: device, zone: "Europe/Berlin", since: now - .seconds(600))
        _ = try await store.commitImport(
            [StoreContract.sample("\(device)-imported", at: 600)], device: device,
            checkpoint: ImportCheckpoint(fingerprint: "file-\(device)", format: "gpx", records: 1, points: 1), at: now)
        // The import marked its stretch pending (`timeline_pending`); the save keeps a resume point.
        try await store.saveTimeline(
            device: device, closed: [.gap(TimelineGap(start: now - .seconds(600), end: now))], checkpoint: "{}",
            newest: now, replacingFrom: nil, resumePoints: [], consuming: nil)
    }
}

/// ``LifecycleContract`` on SQLite.
@Suite("Share links, retention, erasure: SQLite store")
struct SQLiteLifecycleContractTests {
    @Test func shareLinksRoundTrip() async throws {
        try await LifecycleContract.shareLinksRoundTrip(try SQLiteTrackStore.inMemory())
    }
    @Test func revokingADeviceEndsItsShareLinks() async throws {
        try await LifecycleContract.revokingADeviceEndsItsShareLinks(try SQLiteTrackStore.inMemory())
    }
    @Test func retentionSweepsInBatchesAndKeepsTallies() async throws {
        try await LifecycleContract.retentionSweepsInBatchesAndKeepsTallies(try SQLiteTrackStore.inMemory())
    }
    @Test func erasureRemovesOnlyTheDevice() async throws {
        try await LifecycleContract.erasureRemovesOnlyTheDevice(try SQLiteTrackStore.inMemory())
    }
}

/// ``LifecycleContract`` on PostgreSQL.
@Suite("Share links, retention, erasure: PostgreSQL store", .postgres)
struct PostgresLifecycleContractTests {
    @Test func shareLinksRoundTrip() async throws {
        try await PostgresTestDatabase.withStore { try await LifecycleContract.shareLinksRoundTrip($0) }
    }
    @Test func revokingADeviceEndsItsShareLinks() async throws {
        try await PostgresTestDatabase.withStore { try await LifecycleContract.revokingADeviceEndsItsShareLinks($0) }
    }
    @Test func retentionSweepsInBatchesAndKeepsTallies() async throws {
        try await PostgresTestDatabase.withStore {
            try await LifecycleContract.retentionSweepsInBatchesAndKeepsTallies($0)
        }
    }
    @Test func erasureRemovesOnlyTheDevice() async throws {
        try await PostgresTestDatabase.withStore { try await LifecycleContract.erasureRemovesOnlyTheDevice($0) }
    }
}
