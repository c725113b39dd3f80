import BackgroundCore
import Foundation
import Testing
import TrackServer

/// What every ``ImportStore`` must do, on SQLite and PostgreSQL: rows and checkpoint in one
/// transaction, duplicates skipped, counts exact across a kill and a resume, a second import of
/// the same file adding nothing.
enum ImportContract {
    static let now = ImportHarness.now
    static let file = Array(ImportSampleFile.text(.takeoutRecords, records: 40).utf8)

    static func aBatchAndItsCheckpointAreCommittedTogether(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "p", tokenHash: "h", at: now)
        let first = try await ImportHarness.importInto(store, device: "p", bytes: file)
        #expect(first.added == 40 && first.duplicates == 0 && first.points == 40 && first.finished)
        let saved = try #require(try await store.importCheckpoint(device: "p", fingerprint: "file"))
        #expect(saved == first)
        let device = try #require(try await store.device(named: "p"))
        #expect(device.sampleCount == 40)
        #expect(device.lastSeenAt == nil, "an import is history, not a sign of life")
        #expect(try await store.importCheckpoint(device: "p", fingerprint: "other") == nil)
    }

    static func theSameFileTwiceAddsNothing(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "p", tokenHash: "h", at: now)
        try await ImportHarness.importInto(store, device: "p", bytes: file)
        let second = try await ImportHarness.importInto(store, device: "p", bytes: file)
        #expect(second.added == 0 && second.duplicates == 40 && second.finished)
        // An overlapping file (its first 20 points and 20 more) adds only the new ones.
        let longer = Array(ImportSampleFile.text(.takeoutRecords, records: 60).utf8)
        let overlap = try await ImportHarness.importInto(store, device: "p", bytes: longer, fingerprint: "longer")
        #expect(overlap.added == 20 && overlap.duplicates == 40)
        #expect(try await store.device(named: "p")?.sampleCount == 60)
        let tally = try await store.sampleTally(
            device: "p", from: Instant(milliseconds: 0), to: Instant(milliseconds: .max))
        #expect(tally == SampleTally(rows: 60, distinctTimes: 60))
    }

    static func aKilledImportResumesWithExactCounts(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "p", tokenHash: "h", at: now)
        for stop in [1, 3] {
            let partial = try await ImportHarness.importInto(store, device: "p", bytes: file, stopAfterBatches: stop)
            #expect(!partial.finished)
        }
        let saved = try #require(try await store.importCheckpoint(device: "p", fingerprint: "file"))
        #expect(saved.records == 28 && saved.added == 28 && !saved.finished)
        let resumed = try await ImportHarness.importInto(store, device: "p", bytes: file)
        #expect(resumed.finished)
        #expect(resumed.points == 40 && resumed.added == 40 && resumed.duplicates == 0, "\(resumed)")
        #expect(try await store.device(named: "p")?.sampleCount == 40)
    }

    static func anUnknownDeviceWritesNothing(_ store: any TrackStore) async throws {
        await #expect(throws: TrackStoreError.unknownDevice("ghost")) {
            try await ImportHarness.importInto(store, device: "ghost", bytes: file)
        }
        _ = try await store.addDevice(name: "p", tokenHash: "h", at: now)
        #expect(try await store.importCheckpoint(device: "ghost", fingerprint: "file") == nil)
    }

    /// Issue 38 item 5: a checkpoint keeps the digest its client declared and the hash of the
    /// body's bytes its records lie in, and a later batch under the same name replaces them.
    static func aCheckpointKeepsItsDigestAndPrefix(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "p", tokenHash: "h", at: now)
        let digest = "sha-256=:" + String(repeating: "A", count: 43) + "=:"
        var checkpoint = ImportCheckpoint(
            fingerprint: "id trip", format: "gpx", records: 7, bytes: 900, points: 7, digest: digest,
            prefix: "1000 " + String(repeating: "ab", count: 32))
        _ = try await store.commitImport([], device: "p", checkpoint: checkpoint, at: now)
        #expect(try await store.importCheckpoint(device: "p", fingerprint: "id trip") == checkpoint)
        checkpoint = ImportCheckpoint(fingerprint: "id trip", format: "gpx")
        _ = try await store.commitImport([], device: "p", checkpoint: checkpoint, at: now)
        let reset = try await store.importCheckpoint(device: "p", fingerprint: "id trip")
        #expect(reset == checkpoint && reset?.digest == nil && reset?.prefix == nil)
    }

    static func importsAreKeptPerDevice(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        try await ImportHarness.importInto(store, device: "a", bytes: file)
        let b = try await ImportHarness.importInto(store, device: "b", bytes: file)
        #expect(b.added == 40)
    }
}

@Suite("ImportStore contract: SQLite")
struct ImportStoreContract {
    static func make(_ kind: StoreKind) throws -> any TrackStore {
        try kind.make()
    }

    @Test(arguments: StoreKind.allCases) func aBatchAndItsCheckpointAreCommittedTogether(kind: StoreKind) async throws {
        try await ImportContract.aBatchAndItsCheckpointAreCommittedTogether(Self.make(kind))
    }

    @Test(arguments: StoreKind.allCases) func theSameFileTwiceAddsNothing(kind: StoreKind) async throws {
        try await ImportContract.theSameFileTwiceAddsNothing(Self.make(kind))
    }

    @Test(arguments: StoreKind.allCases) func aKilledImportResumesWithExactCounts(kind: StoreKind) async throws {
        try await ImportContract.aKilledImportResumesWithExactCounts(Self.make(kind))
    }

    @Test(arguments: StoreKind.allCases) func anUnknownDeviceWritesNothing(kind: StoreKind) async throws {
        try await ImportContract.anUnknownDeviceWritesNothing(Self.make(kind))
    }

    @Test(arguments: StoreKind.allCases) func aCheckpointKeepsItsDigestAndPrefix(kind: StoreKind) async throws {
        try await ImportContract.aCheckpointKeepsItsDigestAndPrefix(Self.make(kind))
    }

    @Test(arguments: StoreKind.allCases) func importsAreKeptPerDevice(kind: StoreKind) async throws {
        try await ImportContract.importsAreKeptPerDevice(Self.make(kind))
    }
}

@Suite("ImportStore contract: PostgreSQL")
struct PostgresImportStoreContract {
    @Test(.postgres) func aBatchAndItsCheckpointAreCommittedTogether() async throws {
        try await PostgresTestDatabase.withStore {
            try await ImportContract.aBatchAndItsCheckpointAreCommittedTogether($0)
        }
    }

    @Test(.postgres) func theSameFileTwiceAddsNothing() async throws {
        try await PostgresTestDatabase.withStore { try await ImportContract.theSameFileTwiceAddsNothing($0) }
    }

    @Test(.postgres) func aKilledImportResumesWithExactCounts() async throws {
        try await PostgresTestDatabase.withStore { try await ImportContract.aKilledImportResumesWithExactCounts($0) }
    }

    @Test(.postgres) func anUnknownDeviceWritesNothing() async throws {
        try await PostgresTestDatabase.withStore { try await ImportContract.anUnknownDeviceWritesNothing($0) }
    }

    @Test(.postgres) func aCheckpointKeepsItsDigestAndPrefix() async throws {
        try await PostgresTestDatabase.withStore { try await ImportContract.aCheckpointKeepsItsDigestAndPrefix($0) }
    }

    @Test(.postgres) func importsAreKeptPerDevice() async throws {
        try await PostgresTestDatabase.withStore { try await ImportContract.importsAreKeptPerDevice($0) }
    }
}
