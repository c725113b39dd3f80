import ArgumentParser
import BackgroundCore
import Foundation
import GRDB
import LocationLog

/// `bgtrack-bench store`: the phone store's costs, each next to a baseline from the same run.
///
/// - inserts/s, one transaction per sample as sampling does, for both durability settings,
///   against bare SQL doing the same writes on the same schema at the same `synchronous`;
/// - select + delete of a 500-sample batch out of a 100k backlog, against bare SQL reading and
///   deleting the same 500 rows at the same `synchronous`;
/// - bytes per point of our gzip batch against the same 1,000-point track as Overland GeoJSON
///   and OwnTracks JSON.
struct StoreBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Store inserts, batch select+delete, and payload sizes.")

    @Option(help: "Single-sample inserts per measurement.")
    var inserts = 2000

    @Option(help: "Timed runs of each insert measurement and its baseline, alternating (after one warm-up pair).")
    var repetitions = 5

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

    /// `PRAGMA synchronous` as a level and its name, for the printed lines.
    static func synchronousName(_ level: Int) -> String {
        let names = ["0 OFF", "1 NORMAL", "2 FULL", "3 EXTRA"]
        return names.indices.contains(level) ? names[level] : "\(level) (unknown)"
    }

    /// A bare connection to a store file at the given `synchronous` (the store's own, read back),
    /// as the honest fastest way to run the same SQL without the store's Swift layers.
    static func bareQueue(path: String, synchronous level: Int) throws -> DatabaseQueue {
        var config = Configuration()
        config.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: config)
        // After opening: GRDB's WAL set-up sets NORMAL after `prepareDatabase`.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(level)") }
        let actual = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
        guard actual == level else {
            throw ValidationError("the baseline runs at synchronous \(actual), not the store's \(level)")
        }
        return queue
    }

    /// Inserts, one transaction per sample as sampling does, at each durability, against a fair
    /// baseline: the same three statements (read the counter, insert the row, advance the counter)
    /// in one transaction per sample, cached, on a bare connection to a file with the same schema
    /// and indexes, at the same `synchronous` (read back from both connections and printed).
    func insertBenchmark(_ base: String) throws {
        let count = inserts
        let clock = ContinuousClock()
        for durability in Durability.allCases {
            var storeLevel = -1
            var baselineLevel = -1
            var ours: [Double] = []
            var bare: [Double] = []
            // Alternating runs (one warm-up pair), so a shared disk's bad moments hit both sides.
            for round in 0...repetitions {
                let oursPath = base + "/append-\(UUID().uuidString).sqlite"
                let oursStart = clock.now
                let (store, _) = try LocationStore.open(path: oursPath, durability: durability, now: Self.start)
                storeLevel = try store.synchronousLevel()
                for index in 0..<count { try store.append(Self.fix(index), trigger: .timer, state: .background) }
                let oursSeconds = (clock.now - oursStart).seconds
                let barePath = base + "/bare-\(UUID().uuidString).sqlite"
                let bareStart = clock.now
                // The store creates the schema and indexes, then closes (its queue goes with it).
                _ = try LocationStore.open(path: barePath, durability: durability, now: Self.start)
                let queue = try Self.bareQueue(path: barePath, synchronous: storeLevel)
                baselineLevel = storeLevel
                for index in 0..<count { try Self.bareAppend(queue, Self.fix(index)) }
                let bareSeconds = (clock.now - bareStart).seconds
                if round > 0 {
                    ours.append(oursSeconds)
                    bare.append(bareSeconds)
                }
            }
            let measured = Measurement(label: "LocationStore.append, \(durability.rawValue)", seconds: ours)
            let rate = Double(count) / measured.median
            let baselineRate = Double(count) / Measurement(label: "bare SQL", seconds: bare).median
            print(
                String(
                    format: "%@ (synchronous %@): %.0f inserts/s (median of %d × %d; best %.0f/s); fair baseline "
                        + "(bare SQL, same schema and indexes, one transaction per sample, synchronous %@): "
                        + "%.0f inserts/s; ratio %.2f",
                    measured.label, Self.synchronousName(storeLevel), rate, repetitions, count,
                    Double(count) / measured.best, Self.synchronousName(baselineLevel), baselineRate,
                    rate / baselineRate))
        }
    }

    /// What `LocationStore.append` writes, with cached statements and no Swift layers.
    static func bareAppend(_ queue: DatabaseQueue, _ fix: LocationFix) throws {
        let id = UUID().wireString
        try queue.write { db in
            let seq =
                try Int64.fetchOne(db.cachedStatement(sql: "SELECT next_seq FROM sync_state WHERE id = 1")) ?? 1
            try db.cachedStatement(
                sql: """
                    INSERT INTO sample (id, seq, t, lat, lon, acc, alt, speed, course, battery, charging, trigger,
                        state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 'timer', 'background')
                    """
            ).execute(arguments: [
                id, seq, fix.timestamp.milliseconds, fix.latitude, fix.longitude, fix.horizontalAccuracy,
                fix.altitude, fix.speed, fix.course,
            ])
            try db.cachedStatement(sql: "UPDATE sync_state SET next_seq = ? WHERE id = 1").execute(arguments: [seq + 1])
        }
    }

    /// Select + delete of a 500-sample batch against a fair baseline on the same file: the same
    /// rows read (the 500 oldest, every column, one read transaction) and deleted by id (one
    /// statement in one write transaction), on a bare connection at the store's `synchronous`.
    func batchBenchmark(_ base: String) throws {
        let path = base + "/backlog-\(UUID().uuidString).sqlite"
        let (store, _) = try LocationStore.open(path: path, now: Self.start)
        let samples = (0..<backlog).map { index in
            Sample(
                id: UUID(), seq: Int64(index + 1), fix: Self.fix(index), trigger: .timer, state: .background,
                power: PowerContext(battery: 0.8, charging: false))
        }
        try store.importSamples(samples)
        let level = try store.synchronousLevel()
        let queue = try Self.bareQueue(path: path, synchronous: level)
        let marks = Array(repeating: "?", count: 500).joined(separator: ",")
        var sizes: [Int] = []
        var oursSeconds: [Double] = []
        var bareSeconds: [Double] = []
        let clock = ContinuousClock()
        // Alternating, one warm-up each, so both sides see the same disk and the same backlog size.
        for round in 0...20 {
            let oursStart = clock.now
            let batch = try store.oldestPending(limit: 500)
            try store.acknowledge(deleting: Set(batch.map(\.id)), quarantining: [:], at: Self.start)
            let oursElapsed = (clock.now - oursStart).seconds
            sizes.append(batch.count)
            let bareStart = clock.now
            let ids = try queue.read { db in
                try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT id, seq, t, lat, lon, acc, alt, speed, course, battery, charging, trigger, state
                            FROM sample ORDER BY seq LIMIT 500
                            """)
                ).map { row -> String in row[0] }
            }
            try queue.write { db in
                try db.cachedStatement(sql: "DELETE FROM sample WHERE id IN (\(marks))").execute(
                    arguments: StatementArguments(ids))
            }
            let bareElapsed = (clock.now - bareStart).seconds
            sizes.append(ids.count)
            if round > 0 {
                oursSeconds.append(oursElapsed)
                bareSeconds.append(bareElapsed)
            }
        }
        let ours = Measurement(label: "select 500 oldest + delete them by id", seconds: oursSeconds)
        let bare = Measurement(
            label: "bare SQL: SELECT 500 oldest rows, DELETE … WHERE id IN (500 ids)", seconds: bareSeconds)
        let remaining = try store.pendingCount()
        print(
            String(
                format: "batch of 500 from a %dk backlog (synchronous %@ for both): %@: median %.2f ms (best %.2f ms); "
                    + "fair baseline, %@: median %.2f ms (best %.2f ms); ratio %.1f×; backlog after: %d",
                backlog / 1000, Self.synchronousName(level), ours.label, ours.median * 1000, ours.best * 1000,
                bare.label, bare.median * 1000, bare.best * 1000, ours.median / bare.median, remaining))
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
