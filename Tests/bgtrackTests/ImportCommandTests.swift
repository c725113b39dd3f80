import BackgroundCore
import Foundation
import LocationLogTesting
import Testing
import TrackServer

@testable import bgtrack

/// `bgtrack import`: its flags, and the real binary killed with SIGKILL mid-import and run again.
@Suite struct ImportCommandTests {
    static func temporaryFile(_ text: String, name: String = "import.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bgtrack-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func badFlagsAreRefusedWithWhatToDo() throws {
        let file = try Self.temporaryFile("{}")
        let directory = (file as NSString).deletingLastPathComponent
        let cases: [([String], String)] = [
            (["import", file], "--device"),
            (["import", "--device", "p"], "<files>"),
            (["import", "--device", "", file], "--device must name"),
            (["import", "--device", String(repeating: "d", count: 65), file], "--device must name"),
            (["import", "--device", "p", "/nonexistent/x.gpx"], "does not exist"),
            (["import", "--device", "p", directory], "is a directory"),
            (["import", "--device", "p", "--format", "shapefile", file], "is not one of: gpx"),
            (["import", "--device", "p", "--batch-size", "0", file], "outside 1…1000000"),
            (["import", "--device", "p", "--batch-size", "99999999999", file], "outside 1…1000000"),
        ]
        for (arguments, expected) in cases {
            let text = try #require(refusal(arguments), "\(arguments) parsed")
            #expect(text.contains(expected), "\(arguments): \(text)")
        }
        #expect(refusal(["import", "--device", "p", "--format", "GPX", file]) == nil)
    }

    static func binary() throws -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let path = executable.deletingLastPathComponent().appendingPathComponent("bgtrack").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ImportFailure("bgtrack not found at \(path); build it with `swift build --build-tests` first")
        }
        return path
    }

    /// Runs the real binary, waited for on a thread of its own (not the cooperative pool).
    static func run(_ arguments: [String]) async throws -> (status: Int32, signalled: Bool, output: String) {
        let binary = try binary()
        return try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, process.terminationReason == .uncaughtSignal, text)
        }
    }

    @Test func aKilledImportResumesAndEndsWithEveryPointOnce() async throws {
        let records = 2_000
        let file = try Self.temporaryFile(ImportSampleFile.text(.takeoutRecords, records: records, seed: 9))
        let database = (file as NSString).deletingLastPathComponent + "/tracks.sqlite"
        #expect(try await Self.run(["device", "add", "p", "--db", database]).status == 0)
        let base = ["import", "--device", "p", "--db", database, "--batch-size", "300", file]
        let killed = try await Self.run(base + ["--kill-after-batches", "3"])
        #expect(killed.signalled, "the import was not killed: \(killed.output)")
        let resumed = try await Self.run(base)
        #expect(resumed.status == 0, "\(resumed.output)")
        #expect(resumed.output.contains("resuming after record 900"), "\(resumed.output)")
        #expect(resumed.output.contains("added       2000"), "\(resumed.output)")
        #expect(resumed.output.contains("duplicates  0"), "\(resumed.output)")
        let again = try await Self.run(base)
        #expect(again.output.contains("added       0"), "\(again.output)")
        #expect(again.output.contains("duplicates  2000"), "\(again.output)")
        let store = try SQLiteTrackStore(path: database)
        let tally = try await store.sampleTally(
            device: "p", from: Instant(milliseconds: 0), to: Instant(milliseconds: .max))
        #expect(tally == SampleTally(rows: records, distinctTimes: records))
    }

    /// Killed at every 10 % of the file (after 1 to 9 of its 10 batches), then run again: every
    /// record is stored once and the resumed run's counts are those of one uninterrupted run.
    @Test func killedAtEveryTenthTheImportEndsWithEveryRecordOnce() async throws {
        let records = 2_000
        let file = try Self.temporaryFile(ImportSampleFile.text(.takeoutRecords, records: records, seed: 11))
        let folder = (file as NSString).deletingLastPathComponent
        for tenth in 1...9 {
            let database = folder + "/tracks-\(tenth).sqlite"
            #expect(try await Self.run(["device", "add", "p", "--db", database]).status == 0)
            let base = ["import", "--device", "p", "--db", database, "--batch-size", "200", file]
            let killed = try await Self.run(base + ["--kill-after-batches", "\(tenth)"])
            #expect(killed.signalled, "\(tenth)0 %: the import was not killed: \(killed.output)")
            let resumed = try await Self.run(base)
            #expect(resumed.output.contains("resuming after record \(tenth * 200)"), "\(tenth)0 %: \(resumed.output)")
            #expect(resumed.output.contains("points      \(records)"), "\(tenth)0 %: \(resumed.output)")
            #expect(resumed.output.contains("added       \(records)"), "\(tenth)0 %: \(resumed.output)")
            #expect(resumed.output.contains("duplicates  0"), "\(tenth)0 %: \(resumed.output)")
            let store = try SQLiteTrackStore(path: database)
            let tally = try await store.sampleTally(
                device: "p", from: Instant(milliseconds: 0), to: Instant(milliseconds: .max))
            #expect(tally == SampleTally(rows: records, distinctTimes: records), "\(tenth)0 %")
        }
    }

    /// A killed import of one file, then another of the same size whose only change lies in the
    /// part the first import had done, where the former fingerprint (size and sixteen 64 KiB
    /// slices) did not look: the second is read from its start and its changed point is stored.
    @Test func anotherFileLikeAKilledOneIsReadFromItsStart() async throws {
        let text = ImportSampleFile.text(.gpx, records: 40_000, seed: 3)
        let first = try Self.temporaryFile(text, name: "a.gpx")
        let folder = (first as NSString).deletingLastPathComponent
        let offset = text.utf8.index(text.utf8.startIndex, offsetBy: 620_000)
        let at = try #require(text.range(of: "lat=\"48.", range: offset..<text.endIndex))
        let changed = text.replacingCharacters(in: at, with: "lat=\"47.")
        #expect(changed.utf8.count == text.utf8.count && changed != text)
        let second = folder + "/b.gpx"
        try Data(changed.utf8).write(to: URL(fileURLWithPath: second))
        let database = folder + "/tracks.sqlite"
        #expect(try await Self.run(["device", "add", "p", "--db", database]).status == 0)
        let base = ["import", "--device", "p", "--db", database, "--batch-size", "5000"]
        let killed = try await Self.run(base + ["--kill-after-batches", "3", first])
        #expect(killed.signalled, "the import was not killed: \(killed.output)")
        let other = try await Self.run(base + [second])
        #expect(other.status == 0, "\(other.output)")
        #expect(!other.output.contains("resuming"), "\(other.output)")
        #expect(other.output.contains("added       25001"), "\(other.output)")
        #expect(other.output.contains("duplicates  14999"), "\(other.output)")
        let store = try SQLiteTrackStore(path: database)
        let tally = try await store.sampleTally(
            device: "p", from: Instant(milliseconds: 0), to: Instant(milliseconds: .max))
        #expect(tally.rows == 40_001)
    }

    /// A checkpoint names its file `sha256 <hex>` of every byte (swift-crypto's SHA-256): the
    /// FIPS 180-4 "abc" vector, and 3 MB of "a" read in three chunks (Python's hashlib), so a
    /// stored checkpoint still names the same file.
    @Test func aFileIsFingerprintedByTheSHA256OfItsBytes() throws {
        let path = try Self.temporaryFile("abc", name: "abc.gpx")
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        #expect(
            try ImportFingerprint.of(handle)
                == "sha256 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(handle.offsetInFile == 0)
        let long = try Self.temporaryFile(String(repeating: "a", count: 3_000_000), name: "a.gpx")
        let longHandle = try #require(FileHandle(forReadingAtPath: long))
        defer { try? longHandle.close() }
        #expect(
            try ImportFingerprint.of(longHandle)
                == "sha256 2a152c894398719c0570f83fac34ac03a0f6e8e474b995c2403aa5434f7b9dd4")
    }

    @Test func badRecordsAreReportedAndTheRestImportedAndATruncatedFileFails() async throws {
        var text = ImportSampleFile.text(.gpx, records: 5)
        text = text.replacingOccurrences(of: "<trkpt lat=\"48.13", with: "<trkpt lat=\"98.13")
        let file = try Self.temporaryFile(text, name: "bad.gpx")
        let truncated = try Self.temporaryFile(
            String(ImportSampleFile.text(.gpx, records: 5).dropLast(40)), name: "cut.gpx")
        let database = (file as NSString).deletingLastPathComponent + "/tracks.sqlite"
        #expect(try await Self.run(["device", "add", "p", "--db", database]).status == 0)
        let result = try await Self.run(["import", "--device", "p", "--db", database, file, truncated])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("bad.gpx: record 1 at byte"), "\(result.output)")
        #expect(result.output.contains("latitude 98.13"), "\(result.output)")
        #expect(result.output.contains("cut.gpx: the XML ends at byte"), "\(result.output)")
        let unknown = try await Self.run(["import", "--device", "ghost", "--db", database, file])
        #expect(unknown.status != 0 && unknown.output.contains("bgtrack device add ghost"), "\(unknown.output)")
    }
}
