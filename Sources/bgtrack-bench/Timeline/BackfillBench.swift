import ArgumentParser
import BackgroundCore
import Foundation
import LocationLog
import Logging
import TrackGeometry
import TrackServer

/// `bgtrack-bench backfill`: a year of history imported into a device with a live year (issue 38
/// must-show 4). Builds a SQLite store holding one device's year of samples every `--interval`
/// seconds, stored as live uploads are (``SQLiteTrackStore/insert(_:device:at:)`` in phone-sized
/// batches, each handed to a ``TimelineUpdater``, so its timeline is built), then imports the year
/// before it from a generated GPX file with the release `bgtrack import` in a child process, then
/// reads the device's timeline once in another child (`backfill-read`): the first read after the
/// import, which must show the imported year. Reports the import's wall time and peak RSS, the
/// read's (the timeline catching up) time and peak RSS, and the samples that catch-up read from
/// the store; beside it, in the same run, the same file into an empty device.
struct BackfillBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill",
        abstract:
            "A year imported before a device's live year: import and first-read time, peak RSS (needs a release bgtrack)."
    )

    @Option(help: "Seconds between samples (120: 262,800 a year).") var interval = 120
    @Option(help: "Days in the live year and in the imported one.") var days = 365
    @Option(help: "Samples per live upload while the live year is built.") var batch = 500
    @Option(help: "Directory for the file and databases (default: a fresh temporary directory).")
    var directory: String?

    /// 2025-01-01T00:00:00Z, the live year's first sample.
    static let liveStart = Instant(milliseconds: 1_735_689_600_000)

    func validate() throws {
        guard (1...86_400).contains(interval), (1...3_660).contains(days), (1...100_000).contains(batch) else {
            throw ValidationError("--interval 1…86400, --days 1…3660, --batch 1…100000")
        }
    }

    func run() async throws {
        let base =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-backfill-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(atPath: base) } }
        let bgtrack = try Child.beside("bgtrack")
        let bench = try Child.beside("bgtrack-bench")
        let perYear = days * 86_400 / interval
        let backfillStart = Self.liveStart - .seconds(Int64(days) * 86_400)
        let file = "\(base)/backfill.gpx"
        let written = try Self.writeGPX(to: file, slots: perYear, interval: interval, start: backfillStart)
        print("backfill: \(days) days every \(interval) s; the imported file \(file): \(written) points")

        let clock = ContinuousClock()
        let live = "\(base)/live.sqlite"
        var started = clock.now
        let stored = try await Self.fillLive(path: live, slots: perYear, interval: interval, batch: batch)
        print(
            String(
                format: "live year: %d samples in batches of %d, timeline built as they came, in %.1f s", stored,
                batch, (clock.now - started).seconds))
        let empty = "\(base)/empty.sqlite"
        let emptyStore = try SQLiteTrackStore(path: empty)
        _ = try await emptyStore.addDevice(name: "d0", tokenHash: "unused", at: Self.liveStart)
        try emptyStore.close()

        var rows: [String] = []
        var results: [String: (Child, Child)] = [:]
        for (name, path) in [("live year", live), ("empty device", empty)] {
            started = clock.now
            let imported = try Child.run(bgtrack, ["import", "--device", "d0", "--db", path, file])
            let read = try Child.run(
                bench, ["backfill-read", "--db", path, "--device", "d0", "--before", "\(Self.liveStart.milliseconds)"])
            results[name] = (imported, read)
            rows.append(
                "| \(name) | \(imported.value("points")) | \(String(format: "%.1f", imported.wall)) s | "
                    + "\(imported.peakMB) MB | \(String(format: "%.2f", read.value("seconds", as: Double.self))) s | "
                    + "\(read.peakMB) MB | \(read.value("samplesRead")) | \(read.value("rebuilds")) | "
                    + "\(read.value("entries")) (\(read.value("backfilled")) before the live year) |")
        }
        print("")
        print(
            "| into | points imported | import wall | import peak RSS | first read | read peak RSS | samples read "
                + "| rebuilds | entries |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for row in rows { print(row) }
        if let (liveImport, liveRead) = results["live year"], let (emptyImport, emptyRead) = results["empty device"] {
            print(
                String(
                    format:
                        "\nratios, live year / empty device: import wall %.2f×, first read %.2f×, samples read %.2f×",
                    liveImport.wall / max(emptyImport.wall, 1e-3),
                    liveRead.value("seconds", as: Double.self) / max(emptyRead.value("seconds", as: Double.self), 1e-3),
                    Double(liveRead.value("samplesRead")) / max(Double(emptyRead.value("samplesRead")), 1)))
        }
    }

    /// The live year, uploaded in `batch`-sample requests: each batch stored as an upload is and
    /// handed to the timeline, as the server's ingest routes do. Answers the samples stored.
    static func fillLive(path: String, slots: Int, interval: Int, batch: Int) async throws -> Int {
        let store = try SQLiteTrackStore(path: path, durability: .processCrash)
        _ = try await store.addDevice(name: "d0", tokenHash: "unused", at: liveStart)
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let timeline = TimelineUpdater(store: store, settings: TimelineUpdater.Settings(), logger: logger)
        var year = YearOfSamples(seed: 1, interval: interval, start: liveStart)
        var index = 0
        var stored = 0
        while index < slots {
            let samples = (0..<min(batch, slots - index)).compactMap { _ -> TrackSample? in
                defer { index += 1 }
                return year.sample(index, device: 0)
            }
            let outcome = try await store.insert(samples, device: "d0", at: liveStart)
            stored += outcome.accepted.count
            await timeline.ingest(samples, device: "d0")
        }
        // The open entry and the newest samples saved too, as a server's last read leaves them.
        _ = try await timeline.timeline(device: "d0", from: liveStart, to: liveStart + .seconds(366 * 86_400))
        try store.close()
        return stored
    }

    /// A GPX track of the year from `start`: one point a slot (the phone's gaps left out), the
    /// same commuter's days as the live year (another seed). Answers the points written.
    static func writeGPX(to path: String, slots: Int, interval: Int, start: Instant) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw ValidationError("cannot write \(path)") }
        defer { try? handle.close() }
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="bgtrack-bench backfill" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>backfill</name><trkseg>

            """
        var year = YearOfSamples(seed: 2, interval: interval, start: start)
        var points = 0
        for index in 0..<slots {
            guard let sample = year.sample(index, device: 0) else { continue }
            points += 1
            let position = String(format: "lat=\"%.6f\" lon=\"%.6f\"", sample.latitude, sample.longitude)
            text += "<trkpt \(position)><ele>40</ele><time>\(sample.time.iso8601)</time></trkpt>\n"
            if text.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        text += "</trkseg></trk>\n</gpx>\n"
        try handle.write(contentsOf: Data(text.utf8))
        return points
    }
}

/// `bgtrack-bench backfill-read`: one timeline read of a device on a store another process
/// wrote, as a server that has just started takes its first request: the time it took, and
/// the samples its catch-up read from the store (``TimelineUpdater/samplesRead``).
struct BackfillReadBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill-read", abstract: "One timeline read (a child of `backfill`).", shouldDisplay: false)

    @Option(help: "The SQLite database.") var db: String
    @Option(help: "The device.") var device: String
    @Option(help: "Entries starting before this time (ms since 1970) are counted as backfilled.") var before: Int64

    func run() async throws {
        let store = try SQLiteTrackStore(path: db)
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let timeline = TimelineUpdater(store: store, settings: TimelineUpdater.Settings(), logger: logger)
        let clock = ContinuousClock()
        let started = clock.now
        let (closed, open) = try await timeline.timeline(
            device: device, from: Instant(milliseconds: 0), to: Instant(milliseconds: .max))
        let seconds = (clock.now - started).seconds
        let entries = closed + open
        print("seconds \(seconds)")
        print("entries \(entries.count)")
        print("backfilled \(entries.filter { $0.start.milliseconds < before }.count)")
        print("samplesRead \(await timeline.samplesRead)")
        print("rebuilds \(await timeline.rebuilds)")
        try store.close()
    }
}

/// A child process run under `/usr/bin/time`: its standard output, wall time, peak RSS and CPU
/// time (user + system: on a loaded machine the wall time is mostly waiting for a core).
struct Child {
    var output: String
    var wall: Double
    var peakMB: Int
    var cpuSeconds: Double

    /// The release binary `name` beside this one (`bgtrack`, which the benches run as a child).
    /// - Throws: `ValidationError` saying how to build it, when it is not there.
    static func beside(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ValidationError(
                "no \(name) beside bgtrack-bench; run `swift build --package-path Tools -c release --product \(name)` "
                    + "first")
        }
        return path
    }

    static func run(_ binary: String, _ arguments: [String]) throws -> Child {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        let timeFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bgtrack-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: timeFile) }
        // /usr/bin/time's figures into a file, the child's standard error to nothing: two pipes
        // read one after the other would stall a child that fills the second.
        process.arguments = ["-o", timeFile.path, "-f", "maxrss %M\ncpu %U\nsys %S"] + [binary] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let clock = ContinuousClock()
        let started = clock.now
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let wall = (clock.now - started).seconds
        guard process.terminationStatus == 0 else {
            throw ValidationError("\(binary) \(arguments.joined(separator: " ")) failed: \(text.suffix(500))")
        }
        let timeText = (try? String(contentsOf: timeFile, encoding: .utf8)) ?? ""
        let kilobytes = Child.number("maxrss", in: timeText) ?? 0
        let cpu = (Child.number("cpu", in: timeText) ?? 0) + (Child.number("sys", in: timeText) ?? 0)
        return Child(output: text, wall: wall, peakMB: Int(kilobytes / 1024), cpuSeconds: cpu)
    }

    /// The first number after `label` at the start of a line of the output.
    func value(_ label: String) -> Int { Int(Self.number(label, in: output) ?? -1) }

    func value(_ label: String, as: Double.Type) -> Double { Self.number(label, in: output) ?? -1 }

    static func number(_ label: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " })
            if words.first.map(String.init) == label, words.count > 1, let number = Double(words[1]) { return number }
        }
        return nil
    }
}
