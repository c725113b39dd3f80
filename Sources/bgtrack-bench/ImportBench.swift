import ArgumentParser
import BackgroundCore
import Foundation
import TrackServer

/// `bgtrack-bench import-gen`: writes a generated import file (seeded, never real history).
struct ImportGenBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-gen", abstract: "Write a generated import file of a given size.")

    @Option(help: "One of: \(ImportSampleFile.Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: String = "takeout-records"
    @Option(help: "The file's size: a number and KB, MB or GB (powers of 1000), e.g. 1GB.") var size = "100MB"
    @Option(help: "The random walk's seed.") var seed: UInt64 = 1
    @Option(help: "Where to write it.") var out: String

    func validate() throws {
        guard ImportSampleFile.Kind(rawValue: format) != nil else {
            throw ValidationError(
                "--format '\(format)' is not one of \(ImportSampleFile.Kind.allCases.map(\.rawValue))")
        }
        guard ImportBench.bytes(size) != nil else { throw ValidationError("--size '\(size)' is not like 100MB or 1GB") }
    }

    func run() throws {
        guard let kind = ImportSampleFile.Kind(rawValue: format), let bytes = ImportBench.bytes(size) else { return }
        let points = try ImportBench.generate(kind, bytes: bytes, seed: seed, to: out)
        print("\(out): \(format), \(bytes) bytes target, \(points) points")
    }
}

/// `bgtrack-bench import`: for every format, a generated file imported by the release `bgtrack
/// import` into a fresh SQLite store: file size, points, seconds, points/s and the importing
/// process's peak RSS (`/usr/bin/time`), then the same file again (rows added: 0). The baseline of
/// the same run: the same points committed by the same store method without reading a file.
struct ImportBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import speed and peak memory of every format (needs a release bgtrack).")

    @Option(help: "Size of each generated file, e.g. 100MB; the takeout-records file uses --records-size.")
    var size = "100MB"
    @Option(help: "Size of the takeout-records file (the issue's figure is for 1GB).") var recordsSize = "1GB"
    @Option(help: "Directory for the files and databases (default: a fresh temporary directory).")
    var directory: String?
    @Option(help: "Formats to run (default: all), comma-separated.") var formats: String?

    func run() async throws {
        let base =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-import-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(atPath: base) } }
        let binary = try Child.beside("bgtrack")
        let kinds =
            formats.map { $0.split(separator: ",").compactMap { ImportSampleFile.Kind(rawValue: String($0)) } }
            ?? ImportSampleFile.Kind.allCases
        print(
            "| format | file | points | time | points/s | CPU s | points/CPU s | peak RSS | 2nd import: added "
                + "| raw commit points/s | / raw |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for kind in kinds {
            guard let bytes = Self.bytes(kind == .takeoutRecords ? recordsSize : size) else { continue }
            let file = "\(base)/\(kind.rawValue).data"
            let points = try Self.generate(kind, bytes: bytes, seed: 7, to: file)
            let database = "\(base)/\(kind.rawValue).sqlite"
            _ = try Self.bgtrack(binary, ["device", "add", "phone", "--db", database])
            let first = try Self.bgtrack(binary, ["import", "--device", "phone", "--db", database, file])
            let second = try Self.bgtrack(binary, ["import", "--device", "phone", "--db", database, file])
            let raw = try await Self.rawCommit(points: min(points, 1_000_000), directory: base)
            let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            let rate = Double(first.points) / first.seconds
            print(
                "| \(kind.rawValue) | \(String(format: "%.1f", Double(size) / 1e6)) MB | \(first.points) | "
                    + "\(String(format: "%.1f", first.seconds)) s | \(Int(rate)) | \(String(format: "%.1f", first.cpuSeconds)) | "
                    + "\(Int(Double(first.points) / max(first.cpuSeconds, 1e-3))) | \(first.peakMB) MB | \(second.added) | "
                    + "\(Int(raw)) | \(String(format: "%.2f", rate / raw)) |")
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: database)
        }
    }

    static func bytes(_ text: String) -> Int64? {
        let units: [(String, Int64)] = [("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1000), ("B", 1)]
        for (unit, scale) in units where text.uppercased().hasSuffix(unit) {
            guard let value = Double(text.dropLast(unit.count)), value > 0, value < 1e4 else { return nil }
            return Int64(value * Double(scale))
        }
        return nil
    }

    /// Writes records until the file reaches `bytes`; answers the points written.
    static func generate(_ kind: ImportSampleFile.Kind, bytes: Int64, seed: UInt64, to path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw ValidationError("cannot create \(path)")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw ValidationError("cannot write \(path)") }
        defer { try? handle.close() }
        var file = ImportSampleFile(kind: kind, seed: seed)
        var buffer = Array(file.header.utf8)
        var written: Int64 = 0
        let footer = Array(file.footer.utf8)
        while written + Int64(buffer.count + footer.count) < bytes {
            buffer += Array(file.nextRecord().utf8)
            if buffer.count >= 1 << 20 {
                try handle.write(contentsOf: buffer)
                written += Int64(buffer.count)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer + footer)
        return file.points
    }

    struct Run {
        var points: Int
        var added: Int
        var seconds: Double
        var peakMB: Int
        /// User + system CPU seconds: on a loaded machine the wall time is mostly waiting for a core.
        var cpuSeconds: Double
    }

    /// Runs `bgtrack ARGS` under `/usr/bin/time` (``Child``), reading the summary it printed.
    static func bgtrack(_ binary: String, _ arguments: [String]) throws -> Run {
        let child = try Child.run(binary, arguments)
        return Run(
            points: child.value("points"), added: child.value("added"), seconds: child.value("time", as: Double.self),
            peakMB: child.peakMB, cpuSeconds: child.cpuSeconds)
    }

    /// The same store method an import commits with, fed ready samples in the same batches: what
    /// the store alone costs, without the file.
    static func rawCommit(points: Int, directory: String) async throws -> Double {
        let path = "\(directory)/raw-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteTrackStore(path: path)
        _ = try await store.addDevice(name: "raw", tokenHash: "raw", at: Instant(milliseconds: 0))
        var random = SeededRandom(seed: 3)
        let now = Instant(milliseconds: 1_735_689_600_000)
        let samples = (0..<points).map { index in
            let time = Instant(milliseconds: 1_577_836_800_000 + Int64(index) * 120_000)
            let latitude = 48.1 + random.uniform(-0.1...0.1)
            let longitude = 11.5 + random.uniform(-0.1...0.1)
            return TrackSample(
                key: TrackSample.positionKey(time: time, latitude: latitude, longitude: longitude),
                values: SampleValues(time: time, latitude: latitude, longitude: longitude, accuracy: 10),
                source: .imported)
        }
        let clock = ContinuousClock()
        let start = clock.now
        var checkpoint = ImportCheckpoint(fingerprint: "raw", format: "json")
        for batch in stride(from: 0, to: samples.count, by: ImportPipeline.defaultBatchSize) {
            let slice = Array(samples[batch..<min(batch + ImportPipeline.defaultBatchSize, samples.count)])
            checkpoint.records += slice.count
            _ = try await store.commitImport(slice, device: "raw", checkpoint: checkpoint, at: now)
        }
        let (seconds, attoseconds) = (clock.now - start).components
        try store.close()
        return Double(points) / (Double(seconds) + Double(attoseconds) / 1e18)
    }
}
