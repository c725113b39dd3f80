import BackgroundCore
import Foundation
import Testing
import TrackServer

/// The contract every ``TrackStore`` must meet. A new store (PostgreSQL) adds a case to
/// ``StoreKind`` and runs the same tests.
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

@Suite("TrackStore contract")
struct TrackStoreContract {
    static let now = Instant(milliseconds: 1_732_244_800_000)

    static func sample(_ key: String, at seconds: Int64, lat: Double = 31.2) -> IngestSample {
        IngestSample(
            key: key, id: key, seq: 1, time: Instant(milliseconds: 1_732_240_000_000 + seconds * 1000),
            latitude: lat, longitude: 121.4, accuracy: 5, source: .native)
    }

    @Test(arguments: StoreKind.allCases)
    func devicesAreUniqueByName(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.addDevice(name: "a", tokenHash: "h1", at: Self.now)
        await #expect(throws: TrackStoreError.duplicateName("a")) {
            _ = try await store.addDevice(name: "a", tokenHash: "h2", at: Self.now)
        }
        #expect(try await store.devices().map(\.name) == ["a"])
    }

    @Test(arguments: StoreKind.allCases)
    func tokenOwnersAndRevocation(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.addDevice(name: "a", tokenHash: "device", at: Self.now)
        try await store.addOperator(name: "ops", tokenHash: "operator", at: Self.now)
        try await store.createSession(
            device: "a", tokenHash: "session", expiresAt: Self.now + .seconds(60), at: Self.now)
        #expect(try await store.owner(ofTokenHash: "device", at: Self.now) == .device("a"))
        #expect(try await store.owner(ofTokenHash: "operator", at: Self.now) == .operator("ops"))
        #expect(
            try await store.owner(ofTokenHash: "session", at: Self.now) == .session(device: "a", tokenHash: "session"))
        #expect(try await store.owner(ofTokenHash: "session", at: Self.now + .seconds(61)) == nil)
        #expect(try await store.revokeDevice(named: "a", at: Self.now))
        #expect(try await store.owner(ofTokenHash: "device", at: Self.now) == nil)
        #expect(try await store.owner(ofTokenHash: "session", at: Self.now) == nil)
        #expect(try await store.session(tokenHash: "session")?.revokedAt == Self.now)
        #expect(try await store.revokeDevice(named: "a", at: Self.now) == false)
    }

    @Test(arguments: StoreKind.allCases)
    func sessionsExtendAndRevoke(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.addDevice(name: "a", tokenHash: "device", at: Self.now)
        try await store.createSession(device: "a", tokenHash: "s", expiresAt: Self.now + .seconds(60), at: Self.now)
        try await store.extendSession(tokenHash: "s", to: Self.now + .seconds(600), at: Self.now + .seconds(30))
        #expect(try await store.session(tokenHash: "s")?.expiresAt == Self.now + .seconds(600))
        #expect(try await store.device(named: "a")?.lastSeenAt == Self.now + .seconds(30))
        try await store.revokeSession(tokenHash: "s", at: Self.now + .seconds(40))
        #expect(try await store.owner(ofTokenHash: "s", at: Self.now + .seconds(41)) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func insertIsIdempotentPerDeviceByKey(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: Self.now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: Self.now)
        let first = try await store.insert(
            [Self.sample("k1", at: 0), Self.sample("k2", at: 60)], device: "a", at: Self.now)
        #expect(first == InsertOutcome(accepted: ["k1", "k2"], duplicates: []))
        let again = try await store.insert(
            [Self.sample("k2", at: 60), Self.sample("k3", at: 120)], device: "a", at: Self.now)
        #expect(again == InsertOutcome(accepted: ["k3"], duplicates: ["k2"]))
        let other = try await store.insert([Self.sample("k1", at: 0)], device: "b", at: Self.now)
        #expect(other.accepted == ["k1"])  // keys are per device
        #expect(try await store.device(named: "a")?.sampleCount == 3)
        #expect(try await store.device(named: "a")?.lastSeenAt == Self.now)
    }

    @Test(arguments: StoreKind.allCases)
    func samplesComeBackInTimeOrderWithinTheRange(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: Self.now)
        var original = Self.sample("late", at: 300, lat: 31.3)
        original.speed = 1.5
        original.charging = true
        original.trigger = "visit"
        _ = try await store.insert(
            [original, Self.sample("early", at: 0), Self.sample("mid", at: 120)], device: "a", at: Self.now)
        let start = Instant(milliseconds: 1_732_240_000_000)
        let all = try await store.samples(device: "a", from: start, to: start + .seconds(301))
        #expect(all.map(\.key) == ["early", "mid", "late"])
        #expect(all.last == original)
        let window = try await store.samples(device: "a", from: start + .seconds(1), to: start + .seconds(300))
        #expect(window.map(\.key) == ["mid"])
    }

    @Test(arguments: StoreKind.allCases)
    func aLimitReturnsOnlyTheEarliestSamples(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: Self.now)
        _ = try await store.insert(
            [Self.sample("late", at: 300), Self.sample("early", at: 0), Self.sample("mid", at: 120)], device: "a",
            at: Self.now)
        let start = Instant(milliseconds: 1_732_240_000_000)
        let two = try await store.samples(device: "a", from: start, to: start + .seconds(301), limit: 2)
        #expect(two.map(\.key) == ["early", "mid"])
        #expect(try await store.samples(device: "a", from: start, to: start + .seconds(301), limit: 0).isEmpty)
        #expect(try await store.samples(device: "a", from: start, to: start + .seconds(301), limit: 5).count == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func unknownOrRevokedDeviceWritesNothing(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: Self.now)
        await #expect(throws: TrackStoreError.unknownDevice("nobody")) {
            _ = try await store.insert([Self.sample("k", at: 0)], device: "nobody", at: Self.now)
        }
        _ = try await store.revokeDevice(named: "a", at: Self.now)
        await #expect(throws: TrackStoreError.unknownDevice("a")) {
            _ = try await store.insert([Self.sample("k", at: 0)], device: "a", at: Self.now)
        }
        #expect(try await store.device(named: "a")?.sampleCount == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func eventsAreKeptPerDevice(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: Self.now)
        try await store.recordEvent(device: "a", type: "owntracks.card", json: "{}", at: Self.now)
        #expect(try await store.eventCount(device: "a") == 1)
        #expect(try await store.eventCount(device: "b") == 0)
    }
}

/// What the server's SQLite promises for an acknowledged upload.
@Suite struct ServerDurabilityTests {
    @Test(arguments: [(SQLiteTrackStore.Durability.powerLoss, 2), (.processCrash, 1)])
    func durabilityReachesSQLite(durability: SQLiteTrackStore.Durability, level: Int) async throws {
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
