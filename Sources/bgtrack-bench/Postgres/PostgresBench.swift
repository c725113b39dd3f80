import ArgumentParser
import BackgroundCore
import Foundation
import Hummingbird
import LocationLog
import Logging
import PostgresBaselines
import PostgresNIO
import TrackServer
import TrackServerPostgres

/// `bgtrack-bench postgres`: points per second into PostgreSQL through the real server (500-point
/// native batches over loopback), through the route's parser and write pipeline without HTTP,
/// and through raw baselines doing the same work on one connection (COPY, COPY via a staging
/// table, the store's multi-row INSERT), each in a fresh schema of one database, in the same run.
struct PostgresBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres",
        abstract: "Track server ingest into PostgreSQL over HTTP vs raw COPY and INSERT baselines.")

    @Option(help: "The database, postgres://USER@HOST:PORT/DATABASE (scripts/postgres-temp.sh starts one).")
    var postgres: String
    @Option(help: "Points per run.") var points = 50_000
    @Option(help: "Points per batch (HTTP request and baseline transaction).") var batch = 500
    @Option(help: "Timed runs of each side (after one warm-up).") var repetitions = 3

    func validate() throws {
        guard points > 0, batch > 0, repetitions > 0 else {
            throw ValidationError("--points, --batch and --repetitions must be positive")
        }
        guard batch <= 1_000 else {
            throw ValidationError("--batch \(batch) is above the server's 1000 samples per native batch")
        }
        do {
            _ = try PostgresStoreConfiguration(url: postgres)
        } catch {
            throw ValidationError("--postgres: \(error)")
        }
    }

    func run() async throws {
        let base = try PostgresStoreConfiguration(url: postgres)
        var logger = Logger(label: "bgtrack-bench.postgres")
        // Not .warning: PostgresNIO warns when the store's first query waits for its pool to start.
        logger.logLevel = .error
        let samples = ServerBench.samples(count: points)
        let encoder = JSONEncoder()
        let bodies = try stride(from: 0, to: samples.count, by: batch).map { start in
            let slice = Array(samples[start..<min(start + batch, samples.count)])
            return ByteBuffer(bytes: try encoder.encode(BatchRequest(batch: UUID(), device: "bench", samples: slice)))
        }
        let rawBodies = bodies.map { [UInt8](buffer: $0) }
        // The baselines store exactly what the route stores: the parser's output for the same bodies.
        let parser = NativeBatchParser(maxSamples: 1_000)
        let now = ServerClock.system.now
        let batches = try rawBodies.map { try parser.parseBody($0, device: "bench", now: now).samples }

        print("PostgreSQL ingest benchmark: \(points) points, \(bodies.count) batches of \(batch), \(repetitions) runs")
        print("  server: \(try await PostgresBenchDatabase.settings(base, logger: logger))")
        var timings: [Side: [Double]] = [:]
        for round in 0...repetitions {
            for side in Side.allCases {
                let seconds: Double
                switch side {
                case .http:
                    seconds = try await Self.timeHTTP(bodies: bodies, expected: points, base: base, logger: logger)
                case .httpGroupCommitOff:
                    seconds = try await Self.timeHTTP(
                        bodies: bodies, expected: points, base: base, groupCommit: false, logger: logger)
                case .parseAndInsert:
                    seconds = try await Self.timeParseAndInsert(
                        bodies: rawBodies, expected: points, base: base, logger: logger)
                case .baseline(let baseline):
                    seconds = try await baseline.time(batches, base: base, logger: logger)
                }
                if round > 0 { timings[side, default: []].append(seconds) }
            }
        }
        let rate = timings.mapValues { Double(points) / Measurement(label: "", seconds: $0).median }
        for side in Side.allCases {
            print("  \(side.label): " + String(format: "%.0f points/s", rate[side] ?? .nan))
        }
        func ratio(_ subject: Side, _ baseline: Side) -> Double {
            (rate[subject] ?? .nan) / (rate[baseline] ?? .nan)
        }
        let copy = Side.baseline(.copy)
        let staging = Side.baseline(.copyViaStaging)
        let values = Side.baseline(.multiRowInsert)
        let unnest = Side.baseline(.unnestInsert)
        print(
            String(
                format: "  HTTP / COPY: %.2f (issue 13 asks ≥ 0.4); parse+insert / COPY: %.2f; "
                    + "HTTP / COPY via staging: %.2f", ratio(.http, copy), ratio(.parseAndInsert, copy),
                ratio(.http, staging)))
        print(
            String(
                format: "  HTTP / the store's statement raw (unnest): %.2f; HTTP / parse+insert: %.2f; "
                    + "unnest / COPY: %.2f; unnest / multi-row VALUES: %.2f", ratio(.http, unnest),
                ratio(.http, .parseAndInsert), ratio(unnest, copy), ratio(unnest, values)))
    }

    /// What a run measures, in print order.
    enum Side: Hashable, CaseIterable {
        case http
        case httpGroupCommitOff
        case parseAndInsert
        case baseline(PostgresBaseline)

        static var allCases: [Side] {
            [.http, .httpGroupCommitOff, .parseAndInsert] + PostgresBaseline.allCases.map(Side.baseline)
        }

        var label: String {
            switch self {
            case .http: "HTTP POST /v1/batches (loopback), write pipeline on (the default)"
            case .httpGroupCommitOff: "the same with --group-commit off (store.insert, no savepoint)"
            case .parseAndInsert: "parse and insert in process, no HTTP (the route's parser and write pipeline)"
            case .baseline(let baseline): "raw " + baseline.label
            }
        }
    }

    /// The real server on a PostgreSQL store in a fresh schema; `bodies` posted one after another
    /// on one keep-alive connection, each answered 200 after its commit.
    static func timeHTTP(
        bodies: [ByteBuffer], expected: Int, base: PostgresStoreConfiguration, groupCommit: Bool = true,
        logger: Logger
    ) async throws -> Double {
        try await PostgresBenchDatabase.withFreshSchema(base, logger: logger) { configuration in
            try await PostgresTrackStore.withStore(configuration, logger: logger) { store in
                let token = Tokens.mint(prefix: "bgd")
                _ = try await store.addDevice(name: "bench", tokenHash: Tokens.hash(token), at: ServerClock.system.now)
                var server = ServerConfiguration()
                server.port = 0
                server.groupCommit.enabled = groupCommit
                let environment = TrackServerEnvironment(store: store, configuration: server, logger: logger)
                let app = Application(
                    router: buildRouter(environment), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    logger: logger)
                let seconds = try await ServerBench.post(bodies, to: app, token: token)
                let stored = try await store.device(named: "bench")?.sampleCount ?? 0
                guard stored == expected else {
                    throw PostgresBenchError("HTTP run stored \(stored) of \(expected) points")
                }
                return seconds
            }
        }
    }

    /// The route's work without HTTP: the native parser, then the write pipeline the route stores
    /// through (``SampleCommitter``, group commit on as by default), one batch after another.
    static func timeParseAndInsert(
        bodies: [[UInt8]], expected: Int, base: PostgresStoreConfiguration, logger: Logger
    ) async throws -> Double {
        try await PostgresBenchDatabase.withFreshSchema(base, logger: logger) { configuration in
            try await PostgresTrackStore.withStore(configuration, logger: logger) { store in
                _ = try await store.addDevice(name: "bench", tokenHash: "x", at: Instant(milliseconds: 0))
                let parser = NativeBatchParser(maxSamples: 1_000)
                let committer = SampleCommitter(store: store, limits: GroupCommitLimits())
                let clock = ContinuousClock()
                let start = clock.now
                for body in bodies {
                    let now = ServerClock.system.now
                    let parsed = try parser.parseBody(body, device: "bench", now: now)
                    _ = try await committer.insert(parsed.samples, device: "bench", at: now, bytes: body.count)
                }
                let seconds = (clock.now - start).seconds
                let stored = try await store.device(named: "bench")?.sampleCount ?? 0
                guard stored == expected else {
                    throw PostgresBenchError("parse and insert stored \(stored) of \(expected) points")
                }
                return seconds
            }
        }
    }
}
