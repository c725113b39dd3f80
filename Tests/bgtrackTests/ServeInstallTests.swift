import Foundation
import LocationLogTesting
import Testing
import TrackServer

/// `bgtrack serve` installed without its resource bundle (docs/server.md §Installing): it stops
/// before it opens its store, saying which folder to copy where.
@Suite struct ServeInstallTests {
    @Test func aBinaryWithoutItsBundleRefusesToServeAndSaysWhatToCopyWhere() async throws {
        let built = try ImportCommandTests.binary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bgtrack-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alone = directory.appendingPathComponent("bgtrack").path
        // A hard link is a binary at another path without the copy's cost; a copy where links fail.
        do {
            try FileManager.default.linkItem(atPath: built, toPath: alone)
        } catch {
            try FileManager.default.copyItem(atPath: built, toPath: alone)
        }
        // Under a plain file, so a server that went past the check would fail to open its store
        // (with another message) rather than serve.
        let blocker = directory.appendingPathComponent("not-a-directory")
        try Data().write(to: blocker)
        let database = blocker.appendingPathComponent("tracks.sqlite").path
        let result = try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: alone)
            process.arguments = ["serve", "--db", database, "--port", "0"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        #expect(result.0 != 0, "\(result.1)")
        #expect(result.1.contains("\(PageAssets.bundleName)/Assets is missing"), "\(result.1)")
        #expect(result.1.contains("Copy the folder \(PageAssets.bundleName)"), "\(result.1)")
        #expect(result.1.contains("into \(directory.path), next to bgtrack"), "\(result.1)")
    }
}
