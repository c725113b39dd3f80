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

/// `bgtrack-bench healthz`: `GET /healthz` and `GET /metrics` on a generated SQLite store of 250 k
/// and 4 M samples, against the same requests on an empty store in the same run (the baseline),
/// and the device list's old per-request counting query on the same file (what both cost before
/// the counts were kept, issue 23).
struct HealthBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthz",
        abstract: "/healthz and /metrics on stores of 250 k and 4 M samples, against an empty one.")

    @Option(parsing: .upToNextOption, help: "Samples in each generated store.") var samples = [250_000, 4_000_000]
    @Option(help: "Devices the samples are spread over.") var devices = 20
    @Option(help: "Timed requests per route and store (after 20 untimed).") var requests = 200

    func validate() throws {
        guard !samples.isEmpty, samples.allSatisfy({ (0...20_000_000).contains($0) }) else {
            throw ValidationError("--samples must be counts in 0…20,000,000")
        }
        guard (1...10_000).contains(devices) else { throw ValidationError("--devices must be in 1…10,000") }
        guard (1...100_000).contains(requests) else { throw ValidationError("--requests must be in 1…100,000") }
    }

    func run() async throws {
        print("healthz benchmark: \(devices) devices, \(requests) requests per route, in-process router, SQLite file")
        let empty = try await measure(samples: 0)
        print(Self.row("empty store (baseline)", empty))
        for count in samples {
            let figures = try await measure(samples: count)
            print(Self.row("\(count) samples", figures, baseline: empty))
        }
    }

    struct Figures {
        var healthz: Measurement
        var metrics: Measurement
        /// The device list as it was counted before (one COUNT per device over its samples).
        var oldCount: Measurement
    }

    static func row(_ label: String, _ figures: Figures, baseline: Figures? = nil) -> String {
        func ms(_ measurement: Measurement) -> String {
            let sorted = measurement.seconds.sorted()
            let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
            return String(format: "median %.3f ms, p99 %.3f ms", measurement.median * 1000, p99 * 1000)
        }
        var text =
            "  \(label): /healthz \(ms(figures.healthz)); /metrics \(ms(figures.metrics)); "
            + String(format: "old counting query %.3f ms", figures.oldCount.median * 1000)
        if let baseline {
            text += String(
                format: "\n    ratios to the empty store: /healthz %.2f×, /metrics %.2f×; "
                    + "old query / /healthz now %.1f×",
                figures.healthz.median / baseline.healthz.median, figures.metrics.median / baseline.metrics.median,
                figures.oldCount.median / figures.healthz.median)
        }
        return text
    }

    func measure(samples count: Int) async throws -> Figures {
        let path = try ServerBench.freshDatabase()
        defer { ServerBench.removeDatabase(path) }
        let store = try SQLiteTrackStore(path: path, durability: .processCrash)
        let start = Instant(milliseconds: 1_700_000_000_000)
        for device in 0..<devices {
            _ = try await store.addDevice(name: "d\(device)", tokenHash: "h\(device)", at: start)
        }
        var written = 0
        while written < count {
            let batch = min(10_000, count - written)
            let device = "d\(written / 10_000 % devices)"
            let rows = (written..<written + batch).map { index in
                TrackSample(
                    key: "k\(index)",
                    values: SampleValues(
                        time: start + .seconds(Int64(index)), latitude: 31 + Double(index % 1000) / 1e4, longitude: 121,
                        accuracy: 5), source: .native)
            }
            _ = try await store.insert(rows, device: device, at: start)
            written += batch
        }
        let stored = try await store.devices().reduce(0) { $0 + $1.sampleCount }
        guard stored == count else { throw ValidationError("the store holds \(stored) samples, not \(count)") }
        var configuration = ServerConfiguration()
        configuration.leafletDirectory = nil
        let environment = TrackServerEnvironment(
            store: store, clock: .system, configuration: configuration,
            logger: .init(label: "bench") { _ in
                SwiftLogNoOpLogHandler()
            })
        let app = Application(router: buildRouter(environment), logger: environment.logger)
        let requests = requests
        let (healthz, metrics) = try await app.test(.router) { client in
            (
                try await Self.time("/healthz", client, requests: requests),
                try await Self.time("/metrics", client, requests: requests)
            )
        }
        // GRDB's blocking read: the bench times the query, nothing else runs meanwhile.
        let oldCount = try Measurement.run("old counting query", repetitions: 20) {
            _ = try store.writer.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT d.name, (SELECT COUNT(*) FROM sample s WHERE s.device_id = d.id),
                            (SELECT COUNT(*) FROM rejected_point r WHERE r.device_id = d.id) FROM device d
                        """)
            }
        }
        try store.close()
        return Figures(healthz: healthz, metrics: metrics, oldCount: oldCount)
    }

    static func time(_ uri: String, _ client: any TestClientProtocol, requests: Int) async throws -> Measurement {
        let clock = ContinuousClock()
        var seconds: [Double] = []
        for index in 0..<(requests + 20) {
            let begin = clock.now
            let response = try await client.executeRequest(uri: uri, method: .get, headers: [:], body: nil)
            guard response.status == .ok else { throw ValidationError("\(uri) answered \(response.status.code)") }
            if index >= 20 { seconds.append((clock.now - begin).seconds) }
        }
        return Measurement(label: uri, seconds: seconds)
    }
}
