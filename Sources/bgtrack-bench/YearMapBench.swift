import ArgumentParser
import BackgroundCore
import Foundation
import Hummingbird
import LoadGenerator
import LocationLog
import Logging
import TrackGeometry
import TrackServer

/// `bgtrack-bench yearmap`: a whole year of one device on one map (issue 25 item 1). Builds a
/// store of 1 device-year and one of 20 (262,800 points each: a phone sampling every 2 minutes,
/// with commutes, weekend outings, nights with the phone off, and a few (0,0) and jump outliers),
/// works out their detail levels (the backfill, timed), then asks the server over real HTTP for
/// the year's map (`/v1/devices/d0/map`, the finest detail within the budget) and, in the same run,
/// for every point of the year (`/v1/devices/d0/track?format=polyline`, the most compact exact
/// format), and reports points in range and sent, bytes, time to the last byte and the resident
/// size over repeated requests.
struct YearMapBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "yearmap",
        abstract: "A year on one map: the map route's points, bytes, time and memory against sending every point.")

    @Option(help: "Stores to build, in device-years, comma-separated.") var deviceYears = "1,20"
    @Option(help: "Seconds between samples (120: 262,800 a year).") var interval = 120
    @Option(help: "Requests of each kind, timed (the first of each is a warm-up and not counted).") var repeats = 20
    @Option(help: "The map's point budget (points=).") var points = 20_000
    @Option(
        help:
            "After the table, serve the 1 device-year store and write its year-page URL to this file (for scripts/browser-check.sh); runs until killed."
    )
    var serveURLFile: String?

    func validate() throws {
        guard (1...86_400).contains(interval), (2...1_000).contains(repeats), (1...100_000).contains(points) else {
            throw ValidationError("--interval 1…86400, --repeats 2…1000, --points 1…100000")
        }
        guard !years.isEmpty, years.allSatisfy({ (1...64).contains($0) }) else {
            throw ValidationError("--device-years must be numbers 1…64, comma-separated, e.g. 1,20")
        }
    }

    var years: [Int] { deviceYears.split(separator: ",").compactMap { Int($0) } }

    static let start = Instant(milliseconds: 1_735_689_600_000)  // 2025-01-01T00:00:00Z
    static var end: Instant { start + .seconds(365 * 86_400) }

    func run() async throws {
        print("yearmap: \(points)-point budget, \(repeats - 1) timed requests of each kind; machine shared and noisy")
        var rows: [[String]] = []
        for count in years {
            rows += try await measure(deviceYears: count)
        }
        print("")
        print(
            "| store | request | points in range | points sent | bytes | server ms (median, p90) | RSS before → after \(repeats) requests |"
        )
        print("|---|---|---|---|---|---|---|")
        for row in rows { print("| " + row.joined(separator: " | ") + " |") }
    }

    private func measure(deviceYears count: Int) async throws -> [[String]] {
        let path = try ServerBench.freshDatabase()
        defer { if serveURLFile == nil || count != 1 { ServerBench.removeDatabase(path) } }
        let perDevice = 365 * 86_400 / interval
        print("\n\(count) device-year(s): filling \(count) × \(perDevice) samples …")
        let clock = ContinuousClock()
        var started = clock.now
        let token = try await fill(path: path, devices: count, perDevice: perDevice)
        print(String(format: "  filled in %.1f s", (clock.now - started).seconds))
        let store = try SQLiteTrackStore(path: path, durability: .processCrash)
        let rules = CleanupRules()
        let gap = ServerConfiguration().gapThreshold
        _ = try await store.useDetailRules(rules.fingerprint(maximumGap: gap))
        started = clock.now
        var days = 0
        while true {
            let done = try await store.refreshPendingDetail(rules: rules, maximumGap: gap, dayLimit: 64)
            if done == 0 { break }
            days += done
        }
        let backfill = (clock.now - started).seconds
        print(
            String(
                format: "  detail backfill: %d device-days, %d rows in %.1f s (%.0f rows/s)", days, count * perDevice,
                backfill, Double(count * perDevice) / backfill))
        let tally = try await store.flagTally()
        print(
            "  flagged: "
                + SampleFlag.allCases.dropFirst().map { "\($0.name) \(tally[$0] ?? 0)" }.joined(separator: ", "))
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.maxTrackPoints = 1_000_000
        configuration.leafletDirectory = serveURLFile != nil && count == 1 ? LeafletAssets.installedDirectory() : nil
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let environment = TrackServerEnvironment(store: store, configuration: configuration, logger: logger)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(environment) { port in listening.yield(port) }
        let window = "from=\(Self.start.milliseconds)&to=\(Self.end.milliseconds)"
        let requests: [(String, String)] = [
            (
                "map, whole year (finest detail within \(points) points)",
                "/v1/devices/d0/map?\(window)&points=\(points)"
            ),
            (
                "map, one week at zoom 16",
                "/v1/devices/d0/map?from=\((Self.start + .seconds(180 * 86_400)).milliseconds)&to=\((Self.start + .seconds(187 * 86_400)).milliseconds)&zoom=16&points=\(points)"
            ),
            ("every point (track, polyline)", "/v1/devices/d0/track?\(window)&format=polyline"),
            ("every point (track, GeoJSON)", "/v1/devices/d0/track?\(window)&format=geojson"),
        ]
        let inRange = try await store.sampleCount(device: "d0", from: Self.start, to: Self.end, atMost: .max)
        let weekInRange = try await store.sampleCount(
            device: "d0", from: Self.start + .seconds(180 * 86_400), to: Self.start + .seconds(187 * 86_400),
            atMost: .max)
        let repeats = self.repeats
        let serveURLFile = count == 1 ? self.serveURLFile : nil
        return try await withThrowingTaskGroup(of: [[String]].self) { group in
            group.addTask {
                try await app.run()
                return []
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw ValidationError("the server did not start") }
            var table: [[String]] = []
            for (index, (label, uri)) in requests.enumerated() {
                let request = Array(
                    ("GET \(uri) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                        + "Connection: close\r\n\r\n").utf8)
                var times: [Double] = []
                var bytes = 0
                var sent = "-"
                var status = 0
                _ = await ReadsBench.read([request], port: port)  // warm-up
                ReadsBench.trim()
                let before = Memory.now()
                for _ in 1..<repeats {
                    let result = await Self.timed(request, port: port)
                    times.append(result.seconds * 1000)
                    bytes = result.bytes
                    status = result.status
                    sent = result.points.map(String.init) ?? sent
                }
                ReadsBench.trim()
                let after = Memory.now()
                guard status == 200 else { throw ValidationError("\(label) answered \(status)") }
                if index >= 2 { sent = "\(inRange)" }
                times.sort()
                let median = times[times.count / 2]
                let p90 = times[min(times.count - 1, times.count * 9 / 10)]
                func megabytes(_ value: Int) -> String { String(format: "%.1f MB", Double(value) / 1_048_576) }
                table.append([
                    "\(count) device-year\(count == 1 ? "" : "s") (\(count * perDevice) rows)", label,
                    "\(index == 1 ? weekInRange : inRange)", sent,
                    bytes >= 1_048_576 ? megabytes(bytes) : String(format: "%.0f KB", Double(bytes) / 1024),
                    String(format: "%.1f, %.1f", median, p90), "\(megabytes(before)) → \(megabytes(after))",
                ])
                print("  \(label): \(String(format: "%.1f", median)) ms, \(bytes) bytes")
            }
            if let serveURLFile {
                let url = "http://127.0.0.1:\(port)/devices/d0/map?year=2025&token=\(token)"
                try Data((url + "\n").utf8).write(to: URL(fileURLWithPath: serveURLFile))
                print("serving \(url) until killed")
                try await group.next().map { _ in }
            }
            group.cancelAll()
            return table
        }
    }

    struct Timed: Sendable {
        var status: Int
        var bytes: Int
        var seconds: Double
        var points: Int?
    }

    /// One request on a fresh connection: time from sending to the last byte read (loopback, so
    /// this is the server's time plus a copy), the body's size and, for a map, its `points`.
    static func timed(_ request: [UInt8], port: Int) async -> Timed {
        await onThreads(1) { _ in
            let clock = ContinuousClock()
            let started = clock.now
            do {
                let connection = try LoadConnection(port: port)
                let response = try connection.roundTrip(request, keepBody: true)
                let seconds = (clock.now - started).seconds
                var points: Int?
                if response.body.first == UInt8(ascii: "{"), response.body.count < 4 << 20,
                    let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
                {
                    points = object["points"] as? Int
                }
                return Timed(status: response.status, bytes: response.bodyLength, seconds: seconds, points: points)
            } catch {
                return Timed(status: -1, bytes: 0, seconds: 0, points: nil)
            }
        }[0]
    }

    /// `devices` device-years on a fresh store, in 5,000-sample transactions (as `reads`): each
    /// device's token is the same one, returned.
    private func fill(path: String, devices: Int, perDevice: Int) async throws -> String {
        let store = try SQLiteTrackStore(path: path, durability: .processCrash)
        let token = Tokens.mint(prefix: "bgd")
        for device in 0..<devices {
            _ = try await store.addDevice(
                name: "d\(device)", tokenHash: device == 0 ? Tokens.hash(token) : "unused-\(device)", at: Self.start)
            var year = YearOfSamples(seed: UInt64(device + 1), interval: interval, start: Self.start)
            var index = 0
            while index < perDevice {
                let batch = (0..<min(5_000, perDevice - index)).compactMap { _ -> TrackSample? in
                    defer { index += 1 }
                    return year.sample(index, device: device)
                }
                _ = try await store.insert(batch, device: "d\(device)", at: Self.start)
            }
        }
        try store.close()
        return token
    }
}

/// A deterministic year of a commuter's phone: home at night, a commute to work and back on
/// weekdays along a winding road, a wander at weekends, the phone off some nights (gaps), and a
/// few outliers: (0,0) fixes and lone jumps, which the clean-up rules flag.
struct YearOfSamples {
    var random: SeededRandom
    let interval: Int
    let start: Instant
    let home: (Double, Double)
    let work: (Double, Double)
    var wander: (Double, Double)
    var phoneOffDay = -1

    init(seed: UInt64, interval: Int, start: Instant) {
        random = SeededRandom(seed: seed)
        self.interval = interval
        self.start = start
        home = (48.80 + random.unit() * 0.1, 2.25 + random.unit() * 0.2)
        work = (home.0 + 0.05 + random.unit() * 0.03, home.1 + 0.06 + random.unit() * 0.05)
        wander = home
    }

    /// The sample at slot `index`, `nil` while the phone is off.
    mutating func sample(_ index: Int, device: Int) -> TrackSample? {
        let seconds = index * interval
        let day = seconds / 86_400
        let minute = Double(seconds % 86_400) / 60
        if minute < Double(interval) / 60 {
            phoneOffDay = random.unit() < 0.1 ? day : -1
            wander = home
        }
        // Phone off from 01:00 to 05:00 on about one night in ten.
        if day == phoneOffDay, minute >= 60, minute < 300 { return nil }
        let weekday = (day + 3) % 7 < 5  // 2025-01-01 was a Wednesday
        var position: (Double, Double)
        func along(_ from: (Double, Double), _ to: (Double, Double), _ f: Double) -> (Double, Double) {
            // A winding road: the straight line bent by two slow waves.
            let bend = sin(f * .pi) * 0.01 + sin(f * 5 * .pi) * 0.002
            return (from.0 + (to.0 - from.0) * f + bend, from.1 + (to.1 - from.1) * f - bend)
        }
        switch (weekday, minute) {
        case (true, 480..<520): position = along(home, work, (minute - 480) / 40)
        case (true, 520..<1020): position = work
        case (true, 1020..<1060): position = along(work, home, (minute - 1020) / 40)
        case (false, 600..<960):
            wander.0 += (random.unit() - 0.5) * 0.003
            wander.1 += (random.unit() - 0.5) * 0.004
            position = wander
        default: position = home
        }
        var latitude = position.0 + (random.unit() - 0.5) * 0.0002
        var longitude = position.1 + (random.unit() - 0.5) * 0.0003
        var accuracy = 5 + random.unit() * 30
        let odd = random.unit()
        if odd < 0.0004 {
            latitude = 0
            longitude = 0
        } else if odd < 0.0008 {
            latitude += 3
        } else if odd < 0.001 {
            accuracy = 20_000
        }
        return TrackSample(
            key: "d\(device)-\(index)",
            values: SampleValues(
                time: start + .seconds(Int64(seconds)), latitude: latitude, longitude: longitude, accuracy: accuracy,
                altitude: 40, speed: nil, course: nil, battery: 0.7, charging: false), trigger: "timer",
            state: "background", source: .native)
    }
}
