import ArgumentParser
import BackgroundCore
import Foundation
import Testing
import TrackServer

@testable import bgtrack

/// `bgtrack device add|set --owntracks-key` (issue 23, item 1): malformed, hostile and huge values,
/// the key never echoed, and what reaches the store.
@Suite struct OwnTracksKeyFlagTests {
    @Test(arguments: [
        (["device", "add", "p", "--owntracks-key", ""], "empty"),
        (["device", "set", "p", "--owntracks-key", ""], "empty"),
        (["device", "set", "p", "--owntracks-key", String(repeating: "a", count: 31) + "é"], "32nd byte"),
        (["device", "set", "p"], "--clear-owntracks-key"),
        (["device", "set", "p", "--owntracks-key", "x", "--clear-owntracks-key"], "either"),
    ])
    func badKeysAndFlagCombinationsAreRefused(arguments: [String], expected: String) throws {
        let text = try #require(refusal(arguments))
        #expect(text.contains(expected), "\(text)")
    }

    @Test func aRefusalNeverEchoesTheSecret() throws {
        let secret = String(repeating: "x", count: 31) + "ü-hunter2"
        let text = try #require(refusal(["device", "set", "p", "--owntracks-key", secret]))
        #expect(!text.contains("hunter2") && !text.contains(secret))
    }

    @Test func aHugeSecretIsCutAt32BytesAsTheAppsDo() throws {
        let huge = String(repeating: "k", count: 1_000_000)
        let set = try #require(try BGTrack.parseAsRoot(["device", "set", "p", "--owntracks-key", huge]) as? DeviceSet)
        #expect(try set.ownTracksKey.key()?.bytes == Array(repeating: UInt8(ascii: "k"), count: 32))
    }

    @Test func aDashReadsTheSecretFromStandardInput() throws {
        let set = try #require(try BGTrack.parseAsRoot(["device", "set", "p", "--owntracks-key", "-"]) as? DeviceSet)
        #expect(try set.ownTracksKey.key { "s3cret" } == OwnTracksKey(secret: "s3cret"))
        #expect(throws: ValidationError.self) { _ = try set.ownTracksKey.key { nil } }
        #expect(throws: ValidationError.self) { _ = try set.ownTracksKey.key { "" } }
    }

    @Test func addAndSetStoreTheKeyAndSetClearsIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("otkey-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("t.sqlite").path
        let add = try #require(
            try BGTrack.parseAsRoot(["device", "add", "p", "--db", db, "--owntracks-key", "first"]) as? DeviceAdd)
        try await add.run()
        let store = { try SQLiteTrackStore(path: db) }
        #expect(try await store().ownTracksKey(device: "p") == OwnTracksKey(secret: "first"))
        let set = try #require(
            try BGTrack.parseAsRoot(["device", "set", "p", "--db", db, "--owntracks-key", "second"]) as? DeviceSet)
        try await set.run()
        #expect(try await store().ownTracksKey(device: "p") == OwnTracksKey(secret: "second"))
        let clear = try #require(
            try BGTrack.parseAsRoot(["device", "set", "p", "--db", db, "--clear-owntracks-key"]) as? DeviceSet)
        try await clear.run()
        #expect(try await store().ownTracksKey(device: "p") == nil)
        let unknown = try #require(
            try BGTrack.parseAsRoot(["device", "set", "nobody", "--db", db, "--owntracks-key", "k"]) as? DeviceSet)
        await #expect(throws: ValidationError.self) { try await unknown.run() }
    }
}
