import ArgumentParser
import BackgroundCore
import Foundation
import GRDB
import LocationLog

/// `bgtrack-bench store`: the phone store's costs, each next to a baseline from the same run.
///
/// - inserts/s, one transaction per sample as sampling does, for both durability settings,
///   against a bare GRDB insert of one integer row per transaction;
/// - select + delete of a 500-sample batch out of a 100k backlog, against one bare
///   `DELETE … WHERE seq <= ?` statement on the same backlog;
/// - bytes per point of our gzip batch against the same 1,000-point track as Overland GeoJSON
///   and OwnTracks JSON.
struct StoreBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Store inserts, batch select+delete, and payload sizes.")

    @Option(help: "Single-sample inserts per measurement.")
    var inserts = 2000

    @Option(help: "Backlog size for the batch benchmark.")
    var backlog = 100_000

    @Option(help: "Directory for the database files (default: a fresh temporary directory).")
    var directory: String?

    func run() throws {
        let base =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "bgtrack-bench-\(UUID().uuidString)"
            ).path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(atPath: base) } }
        print("store benchmarks in \(base)")
        try insertBenchmark(base)
        try batchBenchmark(base)
        try payloadBenchmark()
    }

    static let start = Instant(milliseconds: 1_732_240_000_000)

    static func fix(_ index: Int) -> LocationFix {
        LocationFix(
            timestamp: start + .seconds(Int64(index) * 120), latitude: 31.2304 + Double(index % 1000) * 1e-5,
            longitude: 121.4737 + Double(index % 777) * 1e-5, horizontalAccuracy: 8 + Double(index % 7),
            altitude: 4 + Double(index % 3), speed: 1.4, course: Double(index % 360))
    }

    func insertBenchmark(_ base: String) throws {
        let count = inserts
        let baseline = try Measurement.run("bare GRDB insert (1 integer row per transaction)", repetitions: 3) {
            let path = base + "/baseline-\(UUID().uuidString).sqlite"
            var config = Configuration()
            config.journalMode = .wal
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let queue = try DatabaseQueue(path: path, configuration: config)
            try queue.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)") }
            for index in 0..<count {
                try queue.write { db in try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [index]) }
            }
        }
        let baselineRate = Double(count) / baseline.median
        print(String(format: "baseline: %@: %.0f inserts/s", baseline.label, baselineRate))
        for durability in LocationStore.Durability.allCases {
            let measurement = try Measurement.run("LocationStore.append, \(durability.rawValue)", repetitions: 3) {
                let path = base + "/append-\(UUID().uuidString).sqlite"
                let (store, _) = try LocationStore.open(path: path, durability: durability, now: Self.start)
                for index in 0..<count { try store.append(Self.fix(index), trigger: .timer, state: .background) }
            }
            let rate = Double(count) / measurement.median
            print(
                String(
                    format: "%@: %.0f inserts/s (median of 3 × %d; best %.0f/s) = %.2f × baseline", measurement.label,
                    rate, count, Double(count) / measurement.best, rate / baselineRate))
        }
    }

    func batchBenchmark(_ base: String) throws {
        let path = base + "/backlog-\(UUID().uuidString).sqlite"
        let (store, _) = try LocationStore.open(path: path, now: Self.start)
        let samples = (0..<backlog).map { index in
            Sample(
                id: UUID(), seq: Int64(index + 1), fix: Self.fix(index), trigger: .timer, state: .background,
                power: PowerContext(battery: 0.8, charging: false))
        }
        try store.importSamples(samples)
        var sizes: [Int] = []
        let ours = try Measurement.run("select 500 oldest + delete them by id", repetitions: 20) {
            let batch = try store.oldestPending(limit: 500)
            sizes.append(batch.count)
            try store.acknowledge(deleting: Set(batch.map(\.id)), quarantining: [:], at: Self.start)
        }
        let remaining = try store.pendingCount()
        // Baseline: the cheapest possible removal of 500 rows from the same table.
        let queue = try DatabaseQueue(path: path)
        let bare = try Measurement.run("bare DELETE … WHERE seq <= min + 499", repetitions: 20) {
            try queue.write { db in
                try db.execute(sql: "DELETE FROM sample WHERE seq <= (SELECT min(seq) FROM sample) + 499")
            }
        }
        print(
            String(
                format:
                    "batch of 500 from a %dk backlog: %@: median %.2f ms (best %.2f ms); baseline %@: median %.2f ms; "
                    + "ratio %.1f×; backlog after: %d",
                backlog / 1000, ours.label, ours.median * 1000, ours.best * 1000, bare.label, bare.median * 1000,
                ours.median / bare.median, remaining))
        guard sizes.allSatisfy({ $0 == 500 }) else {
            throw ValidationError("batch benchmark read short batches: \(Set(sizes))")
        }
    }

    func payloadBenchmark() throws {
        let samples = (0..<1000).map { index in
            Sample(
                id: UUID(), seq: Int64(index + 1), fix: Self.fix(index), trigger: .timer, state: .background,
                power: PowerContext(battery: 0.83 - Double(index) / 10_000, charging: false))
        }
        let ours = try JSONEncoder().encode(BatchRequest(batch: UUID(), device: "iphone-42", samples: samples))
        let oursGzip = try Gzip.compress(ours)
        let overland = try JSONSerialization.data(withJSONObject: ["locations": samples.map(Self.overland)])
        let overlandGzip = try Gzip.compress(overland)
        var ownTracksTotal = 0
        var ownTracksGzipTotal = 0
        var ownTracksAll = Data()
        for sample in samples {
            let body = try JSONSerialization.data(withJSONObject: Self.ownTracks(sample))
            ownTracksTotal += body.count
            ownTracksGzipTotal += try Gzip.compress(body).count
            ownTracksAll.append(body)
        }
        let baseline = Double(overland.count) / 1000
        func line(_ label: String, _ bytes: Int) {
            let perPoint = Double(bytes) / 1000
            let padded = label.padding(toLength: 52, withPad: " ", startingAt: 0)
            print("  \(padded)" + String(format: " %7.1f B/point  %5.3f × Overland raw", perPoint, perPoint / baseline))
        }
        print("payload for the same 1,000-point track (baseline: Overland GeoJSON, uncompressed, one request):")
        line("ours, JSON", ours.count)
        line("ours, JSON + gzip (what the device sends)", oursGzip.count)
        line("Overland GeoJSON (baseline)", overland.count)
        line("Overland GeoJSON + gzip", overlandGzip.count)
        line("OwnTracks JSON, 1 request per point", ownTracksTotal)
        line("OwnTracks JSON, each body gzipped", ownTracksGzipTotal)
        line("OwnTracks JSON, all 1,000 gzipped together", try Gzip.compress(ownTracksAll).count)
    }

    /// One Overland location (aaronpk/Overland-iOS) with the fields it sends.
    static func overland(_ sample: Sample) -> [String: Any] {
        [
            "type": "Feature",
            "geometry": ["type": "Point", "coordinates": [sample.longitude, sample.latitude]],
            "properties": [
                "timestamp": sample.time.iso8601.replacingOccurrences(of: ".000Z", with: "Z"),
                "altitude": sample.altitude ?? 0, "speed": sample.speed ?? -1, "course": sample.course ?? -1,
                "horizontal_accuracy": sample.accuracy ?? -1, "vertical_accuracy": 4, "motion": ["walking"],
                "battery_state": "unplugged", "battery_level": sample.battery ?? -1, "wifi": "",
                "device_id": "iphone-42", "unique_id": sample.id.wireString,
            ] as [String: Any],
        ]
    }

    /// One OwnTracks `_type: location` message (owntracks/ios) with the fields it sends.
    static func ownTracks(_ sample: Sample) -> [String: Any] {
        [
            "_type": "location", "lat": sample.latitude, "lon": sample.longitude,
            "tst": sample.time.milliseconds / 1000, "acc": Int(sample.accuracy ?? 0), "alt": Int(sample.altitude ?? 0),
            "vac": 4, "vel": Int((sample.speed ?? 0) * 3.6), "cog": Int(sample.course ?? 0),
            "batt": Int((sample.battery ?? 0) * 100), "bs": 1, "t": "t", "tid": "42", "conn": "w", "m": 1,
            "created_at": sample.time.milliseconds / 1000,
        ]
    }
}
