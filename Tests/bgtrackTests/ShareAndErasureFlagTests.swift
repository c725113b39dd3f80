import ArgumentParser
import BackgroundCore
import Foundation
import Testing
import TrackServer

@testable import bgtrack

/// `bgtrack share create|list|revoke`, `device delete --data`, `device set --retention` and
/// `serve --retention` (issue 25 items 3 and 4): malformed, hostile and huge values are refused
/// with a message naming the flag, and the commands do what they say on a real database file.
@Suite struct ShareAndErasureFlagTests {
    @Test(arguments: [
        (["share", "create", "--device", "p"], "either --live or both --from and --to"),
        (["share", "create", "--device", "p", "--live", "--from", "2024-11-22", "--to", "2024-11-23"], "either"),
        (["share", "create", "--device", "p", "--from", "2024-11-22"], "either"),
        (["share", "create", "--device", "p", "--live", "--expires", "0d"], "--expires"),
        (["share", "create", "--device", "p", "--live", "--expires", "-1d"], "--expires"),
        (["share", "create", "--device", "p", "--live", "--expires", "7"], "--expires"),
        (["share", "create", "--device", "p", "--live", "--expires", "366d"], "365d"),
        (["share", "create", "--device", "p", "--live", "--expires", "9999999w"], "--expires"),
        (["share", "create", "--device", "p", "--live", "--expires", "1y"], "--expires"),
        (["share", "create", "--device", "p", "--live", "--expires", "7 d"], "--expires"),
        (["share", "create", "--device", "p", "--live", "--expires", "٣d"], "--expires"),
        (["share", "create", "--device", "p", "--live", "--expires", ""], "--expires"),
        (
            ["share", "create", "--device", "p", "--live", "--expires", String(repeating: "9", count: 100_000) + "d"],
            "--expires"
        ),
        (["share", "create", "--device", "p", "--from", "yesterday", "--to", "2024-11-23"], "--from 'yesterday'"),
        (["share", "create", "--device", "p", "--from", "2024-11-22", "--to", "2024-13-40"], "--to"),
        (["share", "create", "--device", "p", "--from", "2024-11-23", "--to", "2024-11-22"], "before"),
        (["share", "create", "--device", "p", "--from", "2020-01-01", "--to", "2024-01-01"], "366 days"),
        (["share", "create", "--device", "p", "--from", "1900-01-01", "--to", "1900-01-02"], "1970"),
        (["share", "revoke", "abc"], "abc"),
        (["device", "delete", "p"], "--data"),
        (["device", "set", "p", "--retention", "0d"], "--retention"),
        (["device", "set", "p", "--retention", "12h"], "--retention"),
        (["device", "set", "p", "--retention", "forever"], "--retention"),
        (["device", "set", "p", "--retention", "30d", "--clear-retention"], "either"),
        (["serve", "--retention", "-5d"], "--retention"),
        (["serve", "--retention", "99999999d"], "--retention"),
    ])
    func badFlagsAreRefusedWithAReason(arguments: [String], expected: String) throws {
        let text = try #require(refusal(arguments), "\(arguments) parsed")
        #expect(text.contains(expected), "\(text)")
    }

    @Test func goodFlagsParse() throws {
        #expect(refusal(["share", "create", "--device", "p", "--live"]) == nil)
        #expect(
            refusal(["share", "create", "--device", "p", "--from", "2024-11-22T08:00:00Z", "--to", "2024-11-23"]) == nil
        )
        #expect(refusal(["device", "set", "p", "--retention", "52w"]) == nil)
        #expect(refusal(["device", "set", "p", "--clear-retention"]) == nil)
        #expect(refusal(["serve", "--retention", "365d"]) == nil)
        #expect(refusal(["device", "delete", "p", "--data", "--yes"]) == nil)
        let serve = try #require(try BGTrack.parseAsRoot(["serve", "--retention", "2w"]) as? ServeCommand)
        #expect(try serve.retentionPeriod() == .seconds(14 * 86_400))
        let forever = try #require(try BGTrack.parseAsRoot(["serve"]) as? ServeCommand)
        #expect(try forever.retentionPeriod() == nil, "forever by default")
    }

    @Test func exportRefusesToOverwriteAFile() throws {
        let existing = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-\(UUID()).csv").path
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("keep me".utf8)))
        defer { try? FileManager.default.removeItem(atPath: existing) }
        let text = try #require(refusal(["device", "delete", "p", "--data", "--yes", "--export", existing]))
        #expect(text.contains("exists"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
    }

    /// share create → list → revoke, then device delete --data --export on one SQLite file.
    @Test func theCommandsWorkOnADatabaseFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-share-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tracks.sqlite").path
        let start = Instant(milliseconds: 1_732_240_000_000)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try SQLiteTrackStore(path: db)
            _ = try await store.addDevice(name: "p", tokenHash: "h", at: start)
            _ = try await store.insert(
                (0..<25).map {
                    TrackSample(
                        key: "k\($0)",
                        values: SampleValues(time: start + .seconds(Int64($0) * 60), latitude: 31.2, longitude: 121.4),
                        source: .native)
                }, device: "p", at: start)
            try store.close()
        }
        try await run(["share", "create", "--db", db, "--device", "p", "--live", "--expires", "2h"])
        try await run(["share", "create", "--db", db, "--device", "p", "--from", "2024-11-22", "--to", "2024-11-23"])
        await #expect(throws: ValidationError.self) {
            try await run(["share", "create", "--db", db, "--device", "nobody", "--live"])
        }
        var store = try SQLiteTrackStore(path: db)
        let links = try await store.shares(device: "p")
        #expect(links.count == 2)
        #expect(links.map(\.createdBy).allSatisfy { $0.hasPrefix("cli") })
        try store.close()
        try await run(["share", "list", "--db", db])
        try await run(["share", "revoke", "--db", db, "\(links[0].id)"])
        await #expect(throws: ValidationError.self) {
            try await run(["share", "revoke", "--db", db, "\(links[0].id)"])
        }
        try await run(["device", "set", "--db", db, "p", "--retention", "30d"])
        store = try SQLiteTrackStore(path: db)
        #expect(try await store.retentions() == ["p": .seconds(30 * 86_400)])
        #expect(try await store.shares(device: "p").first?.revokedAt != nil)
        try store.close()
        let export = directory.appendingPathComponent("p.csv").path
        try await run(["device", "delete", "--db", db, "p", "--data", "--yes", "--export", export])
        let csv = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n")
        #expect(csv.count == 26, "the header and every sample")
        store = try SQLiteTrackStore(path: db)
        #expect(try await store.device(named: "p") == nil)
        #expect(try await store.shares(device: nil).isEmpty)
        try store.close()
        await #expect(throws: ValidationError.self) {
            try await run(["device", "delete", "--db", db, "p", "--data", "--yes"])
        }
    }

    private func run(_ arguments: [String]) async throws {
        var command = try #require(try BGTrack.parseAsRoot(arguments) as? any AsyncParsableCommand)
        try await command.run()
    }
}
