import BackgroundCore
import Foundation
import GRDB
import LocationLog
import LocationLogTesting
import Testing

/// Kills a writing child process with SIGKILL at 100 seeded moments and checks that every insert
/// that returned is in the file afterwards, and that the file is intact.
@Suite struct StoreKillTests {
    /// The writer executable sits next to the test bundle in the build directory.
    static func writerPath() throws -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let path = executable.deletingLastPathComponent().appendingPathComponent("bgtrack-store-writer").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw KillTestError(
                "bgtrack-store-writer not found at \(path); build it with `swift build --build-tests` first")
        }
        return path
    }

    @Test func everyReturnedInsertSurvivesSIGKILL() async throws {
        let writer = try Self.writerPath()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        var random = SeededRandom(seed: 20_261_122)
        var reported = Set<String>()
        var kills = 0
        for _ in 0..<100 {
            // Kill after a seeded number of reported commits (1…30): the child is then somewhere
            // inside its next transaction, at a moment that differs run to run.
            let killAfter = Int.random(in: 1...30, using: &random)
            // Alternate durability settings: both must keep every returned insert across SIGKILL.
            let durability: Durability = kills % 2 == 0 ? .processCrash : .powerLoss
            let ids = try await Self.runAndKill(writer, path: path, durability: durability, afterLines: killAfter)
            kills += 1
            reported.formUnion(ids)
            let (store, report) = try LocationStore.open(path: path, now: .epoch)
            #expect(report.movedAside == nil, "the store was moved aside after a kill: \(report.message ?? "")")
            let present = Set(try store.pendingIDs().map(\.wireString))
            let missing = reported.subtracting(present)
            #expect(missing.isEmpty, "\(missing.count) acknowledged inserts lost after kill \(kills)")
            let queue = try DatabaseQueue(path: path)
            let integrity = try await queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            try queue.close()
            #expect(integrity == ["ok"])
        }
        #expect(kills == 100)
        #expect(reported.count >= 100)
        print("store kill test: \(kills) SIGKILLs, \(reported.count) returned inserts, all present, integrity ok")
    }

    /// Runs the writer, reads ids until `afterLines` arrived, SIGKILLs it, and returns every id
    /// it reported (including any already in the pipe when it died).
    static func runAndKill(
        _ writer: String, path: String, durability: Durability, afterLines: Int
    ) async throws -> [String] {
        let text = try await runAndKill(writer, arguments: [path, durability.rawValue], afterLines: afterLines)
        // Only complete lines count: each id and its newline are written by one atomic write(2).
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter { $0.count == 36 }
    }

    /// Runs the writer with `arguments` until it has written `afterLines` lines, SIGKILLs it, and
    /// returns everything it wrote. The child is read and waited for on a thread of its own, never
    /// on the cooperative pool the other tests and their live servers need.
    static func runAndKill(_ writer: String, arguments: [String], afterLines: Int) async throws -> String {
        let (output, killed) = try await offThePool { () throws -> (Data, Bool) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: writer)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var buffer = Data()
            var lines = 0
            while lines < afterLines {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }  // the child exited: it failed; the checks will say so
                buffer.append(chunk)
                lines = buffer.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            buffer.append(output.fileHandleForReading.readDataToEndOfFile())
            return (buffer, process.terminationReason == .uncaughtSignal)
        }
        #expect(killed, "the writer exited by itself; it should be killed")
        return String(decoding: output, as: UTF8.self)
    }
}

struct KillTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
