import ArgumentParser
import BackgroundCore
import Foundation
import Hummingbird
import LoadGenerator
import LocationLog
import Logging
import TrackGeometry
import TrackServer

/// `bgtrack-bench reads`: the server's memory under concurrent year-long track reads and exports
/// (issue 23 item 2). A store holds a year of samples for each device; `--clients` clients each
/// read a whole year over real HTTP at once, in every format, while a thread samples the process's
/// resident size. Reported: the size before, the peak and the size after an idle pause; then,
/// in the same run, the same reads done the way the server did them before it streamed (every
/// row of the range in memory, the export built whole) as the baseline.
struct ReadsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reads",
        abstract: "Memory of concurrent year-long track reads and exports: before, peak, after idle.")

    @Option(help: "Devices, each with a year of samples.") var devices = 8
    @Option(help: "Seconds between a device's samples (180: a phone sampling every 3 minutes).") var interval = 180
    @Option(help: "Days of samples per device.") var days = 365
    @Option(help: "Clients reading at once (each its own device, formats in turn).") var clients = 8
    @Option(help: "The server's --max-concurrent-reads (a refused client retries after Retry-After).")
    var maxConcurrentReads = 8
    @Option(help: "The server's --max-track-points: a device holding more answers 400, counted before any read.")
    var maxTrackPoints = 200_000
    @Option(help: "Seconds of idle before the after-idle size.") var idle = 5.0
    @Flag(help: "Skip the materialising baseline.") var noBaseline = false

    func validate() throws {
        guard (1...64).contains(devices), (1...64).contains(clients) else {
            throw ValidationError("--devices and --clients must be in 1…64")
        }
        guard (1...86_400).contains(interval), (1...3_660).contains(days) else {
            throw ValidationError("--interval must be 1…86400 seconds and --days 1…3660")
        }
        guard (1...1_024).contains(maxConcurrentReads), maxTrackPoints > 0 else {
            throw ValidationError("--max-concurrent-reads must be in 1…1024 and --max-track-points positive")
        }
        guard idle >= 0, idle <= 600 else { throw ValidationError("--idle must be 0…600 seconds") }
    }

    /// What one client asks for, in turn: every export format, and a simplified GeoJSON.
    static let queries = [
        "format=geojson", "format=gpx", "format=csv", "format=polyline", "format=geojson&simplify=10",
        "format=csv&simplify=10", "format=gpx&simplify=10", "format=polyline&simplify=10",
    ]

    func run() async throws {
        let path = try ServerBench.freshDatabase()
        defer { ServerBench.removeDatabase(path) }
        let start = Instant(milliseconds: 1_700_000_000_000)
        let end = start + .seconds(Int64(days) * 86_400)
        let perDevice = days * 86_400 / interval
        print("filling \(devices) devices × \(perDevice) samples (\(days) days, every \(interval) s) …")
        let tokens = try await fill(path: path, start: start, perDevice: perDevice)
        let rows = devices * perDevice
        let expected = perDevice <= maxTrackPoints ? 200 : 400
        Self.trim()
        let store = try SQLiteTrackStore(path: path)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.leafletDirectory = nil
        configuration.maxConcurrentReads = maxConcurrentReads
        configuration.maxTrackPoints = maxTrackPoints
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let environment = TrackServerEnvironment(store: store, configuration: configuration, logger: logger)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(environment) { port in listening.yield(port) }
        let window = "from=\(start.milliseconds)&to=\(end.milliseconds)"
        let requests = (0..<clients).map { client in
            Array(
                ("GET /v1/devices/d\(client % devices)/track?\(window)&\(Self.queries[client % Self.queries.count]) "
                    + "HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(tokens[client % devices])\r\n"
                    + "Connection: close\r\n\r\n").utf8)
        }
        let report = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw ValidationError("the server did not start") }
            // One day's read first, so the server's one-time allocations are in "before".
            let day = Array(
                ("GET /v1/devices/d0/track?from=\(start.milliseconds)&to=\((start + .seconds(86_400)).milliseconds) "
                    + "HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(tokens[0])\r\nConnection: close\r\n\r\n")
                    .utf8)
            _ = await Self.read([day], port: port)
            let before = Memory.now()
            let sampler = Memory.Sampler()
            let clock = ContinuousClock()
            let started = clock.now
            let reads = await Self.read(requests, port: port)
            let elapsed = (clock.now - started).seconds
            let peak = sampler.stop()
            let after = Memory.now()
            try await Task.sleep(for: .seconds(idle))
            let idled = Memory.now()
            group.cancelAll()
            return Report(
                before: before, peak: max(peak, after), afterBurst: after, afterIdle: idled, reads: reads,
                seconds: elapsed, refused: environment.readLimiter.refused)
        }
        try store.close()
        print(
            "\(rows) rows; \(clients) clients at once, each a whole year of one device (\(perDevice) points), "
                + "server --max-concurrent-reads \(maxConcurrentReads) --max-track-points \(maxTrackPoints)")
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
        print("streamed reads (the server)")
        print("  before                                  \(megabytes(report.before)) MB")
        print("  peak during \(clients) concurrent reads         \(megabytes(report.peak)) MB")
        print("  right after                             \(megabytes(report.afterBurst)) MB")
        print(
            String(format: "  after %.0f s idle                         ", idle) + "\(megabytes(report.afterIdle)) MB")
        let bytes = report.reads.reduce(0) { $0 + $1.bytes }
        print(
            String(
                format: "  %d reads, %.1f MB streamed in %.2f s, %d answered 503 and retried", report.reads.count,
                Double(bytes) / 1_048_576, report.seconds, report.refused))
        for (index, read) in report.reads.enumerated() {
            let query = Self.queries[index % Self.queries.count]
            print(
                "    d\(index % devices) " + query.padding(toLength: 28, withPad: " ", startingAt: 0)
                    + String(
                        format: " status %d  %9.1f KB  %.2f s", read.status, Double(read.bytes) / 1024, read.seconds))
        }
        guard report.reads.allSatisfy({ $0.status == expected }) else {
            throw ValidationError("a read did not answer \(expected)")
        }
        if !noBaseline {
            try await baseline(path: path, start: start, end: end, before: Memory.now())
        }
    }

    /// The reads as the server did them before it streamed: every row of the range in memory as
    /// a sample, cut, simplified and exported into one string, `clients` at once.
    private func baseline(path: String, start: Instant, end: Instant, before: Int) async throws {
        let store = try SQLiteTrackStore(path: path)
        let sampler = Memory.Sampler()
        let devices = self.devices
        let gap = ServerConfiguration().gapThreshold
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<clients {
                group.addTask {
                    let samples = try await store.samples(device: "d\(client % devices)", from: start, to: end)
                    var segments = Gaps.segments(of: samples.map(\.values), maximumGap: gap)
                    let query = Self.queries[client % Self.queries.count]
                    if query.contains("simplify") {
                        segments = segments.map { Simplification.douglasPeucker($0, tolerance: 10) }
                    }
                    switch query.prefix(11) {
                    case "format=gpx&", "format=gpx": return TrackExport.gpx(segments, name: "d").utf8.count
                    case "format=csv&", "format=csv": return TrackExport.csv(segments).utf8.count
                    case "format=poly": return segments.map { EncodedPolyline.encode($0) }.joined().utf8.count
                    default: return TrackExport.geoJSON(segments).utf8.count
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        let peak = sampler.stop()
        try store.close()
        print("baseline, the same reads materialised (rows in memory, the export built whole), in process")
        print("  before                                  \(String(format: "%.1f", Double(before) / 1_048_576)) MB")
        print(
            "  peak                                    \(String(format: "%.1f", Double(peak) / 1_048_576)) MB"
                + String(format: "  (%.1f MB of exports)", Double(sizes) / 1_048_576))
    }

    struct Read: Sendable {
        var status: Int
        var bytes: Int
        var seconds: Double
    }

    struct Report {
        var before: Int
        var peak: Int
        var afterBurst: Int
        var afterIdle: Int
        var reads: [Read]
        var seconds: Double
        var refused: Int
    }

    /// Each request on its own connection and thread at once; a 503 is retried after its
    /// `Retry-After`. Bodies are counted, not kept.
    static func read(_ requests: [[UInt8]], port: Int) async -> [Read] {
        await onThreads(requests.count) { index in
            let clock = ContinuousClock()
            let started = clock.now
            for _ in 0..<1_000 {
                do {
                    let connection = try LoadConnection(port: port)
                    let response = try connection.roundTrip(requests[index], keepBody: false)
                    if response.status == 503 {
                        Thread.sleep(forTimeInterval: Double(response.retryAfter ?? 1))
                        continue
                    }
                    return Read(
                        status: response.status, bytes: response.bodyLength, seconds: (clock.now - started).seconds)
                } catch {
                    return Read(status: -1, bytes: 0, seconds: (clock.now - started).seconds)
                }
            }
            return Read(status: 503, bytes: 0, seconds: (clock.now - started).seconds)
        }
    }

    /// A year of samples per device, in 5,000-sample transactions, on a store closed afterwards.
    private func fill(path: String, start: Instant, perDevice: Int) async throws -> [String] {
        let store = try SQLiteTrackStore(path: path, durability: .processCrash)
        var tokens: [String] = []
        for device in 0..<devices {
            let token = Tokens.mint(prefix: "bgd")
            tokens.append(token)
            _ = try await store.addDevice(name: "d\(device)", tokenHash: Tokens.hash(token), at: start)
            var random = SeededRandom(seed: UInt64(device + 1))
            var latitude = 48.0 + Double(device) * 0.1
            var longitude = 2.0
            var index = 0
            while index < perDevice {
                var batch: [TrackSample] = []
                batch.reserveCapacity(5_000)
                for _ in 0..<min(5_000, perDevice - index) {
                    latitude += (random.unit() - 0.5) * 0.002
                    longitude += (random.unit() - 0.5) * 0.002
                    batch.append(
                        TrackSample(
                            key: "d\(device)-\(index)",
                            values: SampleValues(
                                time: start + .seconds(Int64(index * interval)), latitude: latitude,
                                longitude: longitude, accuracy: 5 + random.unit() * 20, altitude: 30,
                                speed: random.unit() * 3, course: nil, battery: 0.8, charging: false), trigger: "timer",
                            state: "background", source: .native))
                    index += 1
                }
                _ = try await store.insert(batch, device: "d\(device)", at: start)
            }
        }
        try store.close()
        return tokens
    }

    static func trim() { Heap.trim() }
}

/// The process's resident size from `/proc/self/status`.
enum Memory {
    /// `VmRSS` in bytes (0 where there is no procfs).
    static func now() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.dropFirst(6).filter(\.isNumber)
            return (Int(String(digits)) ?? 0) * 1024
        }
        return 0
    }

    /// Samples `VmRSS` every 2 ms on a thread of its own until stopped; the largest seen.
    final class Sampler: @unchecked Sendable {
        // Lock-guarded `peak` and `running`, hence `@unchecked Sendable`.
        private let lock = NSLock()
        private var peak = 0
        private var running = true
        private let done = DispatchSemaphore(value: 0)

        init() {
            peak = Memory.now()
            let thread = Thread { [self] in
                while lock.withLock({ running }) {
                    let size = Memory.now()
                    lock.withLock { peak = max(peak, size) }
                    usleep(2_000)
                }
                done.signal()
            }
            thread.start()
        }

        func stop() -> Int {
            lock.withLock { running = false }
            done.wait()
            return lock.withLock { max(peak, Memory.now()) }
        }
    }
}
