import ArgumentParser
import BackgroundCore
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Logging
import TrackServer

/// `bgtrack-bench server`: points per second ingested over HTTP on loopback (500-point native
/// batches, keep-alive, one client), the same parse and insert in process without HTTP, and a
/// fair raw SQLite baseline doing the same writes at the same durability (issue 13 item 5), each
/// into a fresh on-disk database, measured in the same run; the HTTP side also with the write
/// pipeline off (one transaction per request, as before issue 14) and at NORMAL. The old raw
/// insert (one transaction, NORMAL, no device update) is still printed, labelled as not fair.
struct ServerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server", abstract: "Track server ingest over HTTP vs a raw SQLite insert.")

    @Option(help: "Points per run.") var points = 50_000
    @Option(help: "Points per HTTP batch.") var batch = 500
    @Option(help: "Timed runs of each side (after one warm-up).") var repetitions = 3

    func run() async throws {
        let samples = Self.samples(count: points)
        let encoder = JSONEncoder()
        let bodies = try stride(from: 0, to: samples.count, by: batch).map { start in
            let slice = Array(samples[start..<min(start + batch, samples.count)])
            return ByteBuffer(bytes: try encoder.encode(BatchRequest(batch: UUID(), device: "bench", samples: slice)))
        }
        var http: [Double] = []
        var httpOff: [Double] = []
        var httpNormal: [Double] = []
        var raw: [Double] = []
        var fair: [Double] = []
        var parseInsert: [Double] = []
        var httpNoTimeline: [Double] = []
        let rawBodies = bodies.map { body in [UInt8](buffer: body) }
        for round in 0...repetitions {
            let httpSeconds = try await Self.timeHTTP(bodies: bodies, expected: samples.count, durability: .powerLoss)
            let noTimelineSeconds = try await Self.timeHTTP(
                bodies: bodies, expected: samples.count, durability: .powerLoss, timeline: false)
            let offSeconds = try await Self.timeHTTP(
                bodies: bodies, expected: samples.count, durability: .powerLoss, groupCommit: false)
            let normalSeconds = try await Self.timeHTTP(
                bodies: bodies, expected: samples.count, durability: .processCrash)
            let rawSeconds = try await Self.timeRaw(samples: samples)
            let fairSeconds = try await Self.timeFairRaw(samples: samples, batch: batch)
            let parseSeconds = try await Self.timeParseAndInsert(bodies: rawBodies, expected: samples.count)
            if round > 0 {
                fair.append(fairSeconds)
                parseInsert.append(parseSeconds)
                http.append(httpSeconds)
                httpNoTimeline.append(noTimelineSeconds)
                httpOff.append(offSeconds)
                httpNormal.append(normalSeconds)
                raw.append(rawSeconds)
            }
        }
        let offRate = Double(points) / Measurement(label: "HTTP ingest, group commit off", seconds: httpOff).median
        let normalRate = Double(points) / Measurement(label: "HTTP ingest, NORMAL", seconds: httpNormal).median
        let httpMeasurement = Measurement(label: "HTTP ingest", seconds: http)
        let rawMeasurement = Measurement(label: "raw SQLite", seconds: raw)
        let httpRate = Double(points) / httpMeasurement.median
        let rawRate = Double(points) / rawMeasurement.median
        print("server ingest benchmark: \(points) points, \(bodies.count) batches of \(batch), \(repetitions) runs")
        print(
            String(
                format: "  HTTP POST /v1/batches (loopback), --durability full (default, PRAGMA synchronous = 2 FULL, "
                    + "checked): median %.3f s  %.0f points/s",
                httpMeasurement.median, httpRate))
        print(
            String(
                format: "  the same with --group-commit off (one transaction per request, before issue 14): "
                    + "%.0f points/s (group commit: %.2f× of it)", offRate, httpRate / offRate))
        print(
            String(
                format:
                    "  the same at --durability normal (synchronous = 1 NORMAL, checked; not compared with a baseline): "
                    + "%.0f points/s (full costs %.1f %% of the rate)", normalRate,
                100 * (1 - httpRate / normalRate)))
        let noTimelineRate =
            Double(points) / Measurement(label: "HTTP ingest, no timeline", seconds: httpNoTimeline).median
        print(
            String(
                format: "  the same with --no-timeline (issue 24: the timeline may cost at most 15 %%): %.0f points/s "
                    + "(timeline on: %.3f× of it, costs %.1f %%)", noTimelineRate, httpRate / noTimelineRate,
                100 * (1 - httpRate / noTimelineRate)))
        let fairRate = Double(points) / Measurement(label: "fair raw SQLite", seconds: fair).median
        let parseRate = Double(points) / Measurement(label: "parse and insert", seconds: parseInsert).median
        print(
            String(
                format: "  parse and insert in process, no HTTP (the route's parser and store, synchronous = 2 FULL, "
                    + "checked): %.0f points/s",
                parseRate))
        print(
            String(
                format: "  fair raw SQLite (synchronous = 2 FULL, checked; one %d-row transaction per batch, prepared "
                    + "statement reused, same schema and indexes, the device update per batch): %.0f points/s", batch,
                fairRate))
        print(
            String(
                format: "  HTTP ingest / fair raw: %.2f; parse+insert / fair raw: %.2f; HTTP / parse+insert: %.2f",
                httpRate / fairRate, parseRate / fairRate, httpRate / parseRate))
        print(
            String(
                format: "  raw SQLite, one transaction (NORMAL, no device update; not a fair baseline): "
                    + "median %.3f s  %.0f points/s", rawMeasurement.median, rawRate))
        print(
            String(
                format: "  ratio raw/HTTP: %.2f (HTTP ingest reaches %.1f %% of the raw insert rate)",
                rawRate / httpRate, 100 * httpRate / rawRate))
    }

    static func samples(count: Int) -> [Sample] {
        (0..<count).map { (index: Int) -> Sample in
            let offset = Double(index) * 1e-6
            let time = Instant(milliseconds: 1_732_233_600_000 + Int64(index) * 1000)
            return Sample(
                id: UUID(), seq: Int64(index + 1),
                values: SampleValues(
                    time: time, latitude: 31.2 + offset, longitude: 121.4 + offset, accuracy: 10, altitude: 4,
                    speed: 1.2, course: 90, battery: 0.8, charging: false))
        }
    }

    static func freshDatabase() throws -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-bench-\(UUID().uuidString).sqlite").path
    }

    /// Posts `bodies` to `/v1/batches` one after another on one keep-alive connection; the seconds
    /// from the first request to the last answer, and then until `settle` returns (the timeline
    /// catching up with the last batch: it runs beside ingest, not in it). Any answer but 200
    /// stops the run.
    static func post<App: ApplicationProtocol>(
        _ bodies: [ByteBuffer], to app: App, token: String, settle: @Sendable () async throws -> Void = {}
    ) async throws -> Double {
        let headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
        return try await app.test(.live) { client in
            let clock = ContinuousClock()
            let start = clock.now
            for body in bodies {
                let response = try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: headers, body: body)
                guard response.status == .ok else {
                    throw ValidationError(
                        "the server answered \(response.status.code): \(String(buffer: response.body))")
                }
            }
            try await settle()
            return (clock.now - start).seconds
        }
    }

    static func timeHTTP(
        bodies: [ByteBuffer], expected: Int, durability: Durability, groupCommit: Bool = true,
        timeline: Bool = true
    ) async throws -> Double {
        let path = try freshDatabase()
        defer { removeDatabase(path) }
        let store = try SQLiteTrackStore(path: path, durability: durability)
        try await checkSynchronous(store, durability == .powerLoss ? 2 : 1, "HTTP ingest")
        let token = Tokens.mint(prefix: "bgd")
        _ = try await store.addDevice(name: "bench", tokenHash: Tokens.hash(token), at: ServerClock.system.now)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.groupCommit.enabled = groupCommit
        configuration.timelineEnabled = timeline
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let environment = TrackServerEnvironment(store: store, configuration: configuration, logger: logger)
        let app = Application(
            router: buildRouter(environment), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: logger)
        let seconds = try await post(bodies, to: app, token: token) {
            // A timeline read takes everything still waiting first: the time includes the timeline's work.
            _ = try await environment.timeline?.timeline(
                device: "bench", from: .epoch, to: Instant(milliseconds: Int64.max / 2))
        }
        let stored = try await store.device(named: "bench")?.sampleCount ?? 0
        guard stored == expected else { throw ValidationError("HTTP run stored \(stored) of \(expected) points") }
        return seconds
    }

    static func timeRaw(samples: [Sample]) async throws -> Double {
        let path = try freshDatabase()
        defer { removeDatabase(path) }
        _ = try SQLiteTrackStore(path: path)  // same schema
        let pool = try DatabasePool(path: path)
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO device (name, token_hash, created_at) VALUES ('bench', 'x', 0)")
        }
        let clock = ContinuousClock()
        let start = clock.now
        try await pool.write { db in
            let statement = try db.makeStatement(
                sql: """
                    INSERT INTO sample (device_id, key, sample_id, seq, t, lat, lon, acc, alt, speed, course, battery,
                        charging, trigger, state, source, received_at)
                    VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'timer', 'background', 'native', 0)
                    """)
            for sample in samples {
                let id = sample.id.wireString
                try statement.execute(arguments: [
                    id, id, sample.seq, sample.time.milliseconds, sample.latitude, sample.longitude, sample.accuracy,
                    sample.altitude, sample.speed, sample.course, sample.battery, sample.charging,
                ])
            }
        }
        return (clock.now - start).seconds
    }

    /// The same work as HTTP ingest at the same durability, without HTTP or parsing: FULL, one
    /// transaction per batch of `batch` rows with the store's `INSERT OR IGNORE` (the same
    /// indexes) and the per-batch device update.
    static func timeFairRaw(samples: [Sample], batch: Int) async throws -> Double {
        let path = try freshDatabase()
        defer { removeDatabase(path) }
        let store = try SQLiteTrackStore(path: path, durability: .powerLoss)  // same schema, FULL
        _ = try await store.addDevice(name: "bench", tokenHash: "x", at: Instant(milliseconds: 0))
        try await checkSynchronous(store, 2, "the fair baseline")
        let writer = store.writer
        let clock = ContinuousClock()
        let start = clock.now
        for first in stride(from: 0, to: samples.count, by: batch) {
            let slice = samples[first..<min(first + batch, samples.count)]
            try await writer.write { db in
                let statement = try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO sample (device_id, key, sample_id, seq, t, lat, lon, acc, alt, speed,
                            course, battery, charging, trigger, state, source, received_at)
                        VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'timer', 'background', 'native', 0)
                        """)
                for sample in slice {
                    let id = sample.id.wireString
                    try statement.execute(arguments: [
                        id, id, sample.seq, sample.time.milliseconds, sample.latitude, sample.longitude,
                        sample.accuracy, sample.altitude, sample.speed, sample.course, sample.battery, sample.charging,
                    ])
                }
                try db.execute(sql: "UPDATE device SET last_seen_at = ? WHERE id = 1", arguments: [first])
            }
        }
        let seconds = (clock.now - start).seconds
        // Counted from the rows: raw SQL does not keep the device's tally (v5-device-tallies).
        let stored = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sample") ?? 0 }
        guard stored == samples.count else { throw ValidationError("fair raw stored \(stored) of \(samples.count)") }
        return seconds
    }

    /// The route's work without HTTP: parse each body with the route's parser and store it with
    /// the store's insert (its own transaction per batch), at FULL.
    static func timeParseAndInsert(bodies: [[UInt8]], expected: Int) async throws -> Double {
        let path = try freshDatabase()
        defer { removeDatabase(path) }
        let store = try SQLiteTrackStore(path: path, durability: .powerLoss)
        try await checkSynchronous(store, 2, "parse and insert")
        _ = try await store.addDevice(name: "bench", tokenHash: "x", at: Instant(milliseconds: 0))
        let parser = NativeBatchParser(maxSamples: 1_000)
        let clock = ContinuousClock()
        let start = clock.now
        for body in bodies {
            let now = ServerClock.system.now
            let parsed = try parser.parseBody(body, device: "bench", now: now)
            _ = try await store.insert(parsed.samples, device: "bench", at: now)
        }
        let seconds = (clock.now - start).seconds
        let stored = try await store.device(named: "bench")?.sampleCount ?? 0
        guard stored == expected else { throw ValidationError("parse and insert stored \(stored) of \(expected)") }
        return seconds
    }

    /// Every figure compared names its `synchronous`; this reads it back from the writer.
    static func checkSynchronous(_ store: SQLiteTrackStore, _ expected: Int, _ label: String) async throws {
        let level = try await store.synchronousLevel()
        guard level == expected else {
            throw ValidationError("\(label) runs at PRAGMA synchronous \(level), not \(expected)")
        }
    }

    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
