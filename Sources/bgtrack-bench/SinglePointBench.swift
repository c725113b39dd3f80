import ArgumentParser
import BackgroundCore
import Foundation
import Hummingbird
import LoadGenerator
import LocationLog
import Logging
import TrackServer

/// `bgtrack-bench single-point`: OwnTracks and OsmAnd clients, one point per request, over real
/// HTTP on loopback, against `/healthz` (the HTTP ceiling) and against the same server with the
/// write pipeline switched off (one transaction per request), all at `synchronous = FULL`, in the
/// same run. Every ingest cell checks that the rows stored equal the requests acknowledged.
struct SinglePointBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "single-point",
        abstract: "Single-point ingest (OwnTracks, OsmAnd) with and without group commit, against /healthz.")

    @Option(help: "Seconds each cell runs.") var seconds = 3.0
    @Option(help: "Rounds; each cell reports the median rate and pooled latencies.") var rounds = 1
    @Option(parsing: .upToNextOption, help: "Connection counts.") var connections = [1, 16, 64]
    @Option(parsing: .upToNextOption, help: "Ingest workloads: owntracks, osmand (/healthz always runs).")
    var workloads: [Workload] = [.ownTracks, .osmAnd]
    @Option(help: "Group commit cells: both (on and off), on, off.") var modes = "both"
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Other OwnTracks HTTP servers measured in the same run, as LABEL=PORT on 127.0.0.1 (the OwnTracks "
                + "Recorder: its /pub takes the same posts). Their stored rows are not checked."))
    var peers: [String] = []
    @Option(
        help: ArgumentHelp(
            "Where Swift concurrency runs: default (the runtime's own pool, as in `bgtrack serve`) or event-loops "
                + "(on SwiftNIO's event loops, for comparison)."))
    var executor = "default"
    @Flag(
        help: ArgumentHelp(
            "Run our server without the stays-and-trips timeline (`bgtrack serve --no-timeline`), to see its "
                + "cost on this workload: one device, its points from 16 connections interleaved in time."))
    var noTimeline = false
    @Flag(
        help: ArgumentHelp(
            "Run our server without the single-point lane (`bgtrack serve --no-single-point-lane`): every point "
                + "through Hummingbird's router, for comparison."))
    var noLane = false
    /// Our server's settings in the cells of this run (`--no-timeline`, `--no-lane`).
    struct Settings: Sendable {
        var timeline = true
        var lane = true
    }

    @TaskLocal static var settings = Settings()

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in 0…600") }
        guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be in 1…100") }
        guard ["both", "on", "off"].contains(modes) else { throw ValidationError("--modes is both, on or off") }
        guard ["event-loops", "default"].contains(executor) else {
            throw ValidationError("--executor is event-loops or default, got \"\(executor.prefix(40))\"")
        }
        guard !connections.isEmpty, connections.allSatisfy({ (1...1024).contains($0) }) else {
            throw ValidationError("--connections must be between 1 and 1024")
        }
        _ = try peerPorts()
    }

    /// `--peers` as label → port.
    func peerPorts() throws -> [(label: String, port: Int)] {
        try peers.map { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 40, let port = Int(parts[1]),
                (1...65_535).contains(port)
            else {
                throw ValidationError("--peers takes LABEL=PORT (a TCP port on 127.0.0.1), got \"\(text.prefix(60))\"")
            }
            return (parts[0], port)
        }
    }

    enum Workload: String, CaseIterable, ExpressibleByArgument {
        case healthz
        case ownTracks = "owntracks"
        case osmAnd = "osmand"

        var label: String {
            switch self {
            case .healthz: "/healthz"
            case .ownTracks: "OwnTracks"
            case .osmAnd: "OsmAnd"
            }
        }
    }

    struct Cell: Hashable {
        var workload: Workload
        var groupCommit: Bool
        var connections: Int
        /// Another server's label and port (OwnTracks posts to its `/pub`), instead of ours.
        var peer: String? = nil
        var peerPort = 0
    }

    func run() async throws {
        let settings = Settings(timeline: !noTimeline, lane: !noLane)
        try await Self.$settings.withValue(settings) { try await measureAll() }
    }

    func measureAll() async throws {
        print("our server's timeline: " + (Self.settings.timeline ? "on" : "off (--no-timeline)"))
        print("single-point lane: " + (Self.settings.lane ? "on" : "off (--no-lane)"))
        let adopted = executor == "event-loops" && ServerThreads.adoptEventLoopsAsGlobalExecutor()
        print("Swift concurrency on " + (adopted ? "SwiftNIO's event loops" : "the runtime's default pool"))
        var cells: [Cell] = []
        for count in connections {
            cells.append(Cell(workload: .healthz, groupCommit: true, connections: count))
            for workload in workloads where workload != .healthz {
                if modes != "off" { cells.append(Cell(workload: workload, groupCommit: true, connections: count)) }
                if modes != "on" { cells.append(Cell(workload: workload, groupCommit: false, connections: count)) }
            }
            for (label, port) in try peerPorts() {
                cells.append(
                    Cell(workload: .ownTracks, groupCommit: false, connections: count, peer: label, peerPort: port))
            }
        }
        var results: [Cell: [LoadRun]] = [:]
        var mismatches = 0
        for round in 1...rounds {
            for cell in cells {
                let (run, rows) = try await Self.measure(cell, seconds: seconds)
                results[cell, default: []].append(run)
                if cell.workload != .healthz && cell.peer == nil && rows != run.ok { mismatches += 1 }
                if !run.failures.isEmpty {
                    print("round \(round) \(Self.name(cell)) \(cell.connections) conns: failures \(run.failures)")
                }
                if let rows, rows != run.ok {
                    print("round \(round) \(Self.name(cell)) \(cell.connections) conns: \(rows) rows ≠ \(run.ok) acks")
                }
            }
        }
        report(cells: cells, results: results, mismatches: mismatches)
    }

    private func report(cells: [Cell], results: [Cell: [LoadRun]], mismatches: Int) {
        print(
            "single-point ingest over HTTP/1.1 keep-alive on 127.0.0.1, synchronous = FULL, "
                + String(format: "%.0f s per cell, %d round(s) (median rate), one point per request", seconds, rounds))
        print("conns  workload              req/s   ×healthz  speed-up   p50 ms   p99 ms   rows = acks")
        func median(_ runs: [LoadRun]) -> Double {
            let rates = runs.map(\.rate).sorted()
            guard !rates.isEmpty else { return .nan }
            return rates.count % 2 == 1
                ? rates[rates.count / 2] : (rates[rates.count / 2 - 1] + rates[rates.count / 2]) / 2
        }
        for cell in cells {
            let runs = results[cell] ?? []
            guard !runs.isEmpty else { continue }
            var pooled = LoadRun()
            pooled.latencies = runs.flatMap(\.latencies)
            let rate = median(runs)
            let ceiling = median(
                results[Cell(workload: .healthz, groupCommit: true, connections: cell.connections)] ?? [])
            let baseline = median(
                results[Cell(workload: cell.workload, groupCommit: false, connections: cell.connections)] ?? [])
            let ratio = cell.workload == .healthz ? "" : String(format: "%.2f", rate / ceiling)
            let speedUp =
                cell.workload == .healthz || !cell.groupCommit || baseline.isNaN
                ? "" : String(format: "%.1f×", rate / baseline)
            let acks = runs.reduce(0) { $0 + $1.ok }
            let check =
                cell.workload == .healthz ? "" : cell.peer != nil ? "\(acks) acks, not checked" : "\(acks) acks checked"
            func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
                let pad = String(repeating: " ", count: max(0, width - text.count))
                return left ? text + pad : pad + text
            }
            print(
                padded("\(cell.connections)", 5) + "  " + padded(Self.name(cell), 18, left: true)
                    + padded(String(format: "%.0f", rate), 9) + padded(ratio, 11) + padded(speedUp, 10)
                    + padded(String(format: "%.2f", pooled.percentile(0.5) * 1000), 9)
                    + padded(String(format: "%.2f", pooled.percentile(0.99) * 1000), 9) + "   " + check)
        }
        for peer in Set(cells.compactMap(\.peer)).sorted() {
            for count in connections {
                guard
                    let theirs = cells.first(where: { $0.peer == peer && $0.connections == count }).map({
                        median(results[$0] ?? [])
                    })
                else { continue }
                let ours = workloads.filter { $0 != .healthz }.map { workload in
                    let rate = median(
                        results[Cell(workload: workload, groupCommit: true, connections: count)] ?? [])
                    return "\(workload.label) " + String(format: "%.1f×", rate / theirs)
                }
                print("\(count) conns: ours (group commit) against \(peer): " + ours.joined(separator: ", "))
            }
        }
        print(
            mismatches == 0
                ? "rows stored = requests acknowledged in every ingest cell"
                : "ROWS ≠ ACKS in \(mismatches) cell(s): see above")
    }

    static func name(_ cell: Cell) -> String {
        if let peer = cell.peer { return "\(peer) OwnTracks" }
        return switch cell.workload {
        case .healthz: "/healthz"
        case .ownTracks, .osmAnd: "\(cell.workload.label) \(cell.groupCommit ? "group" : "off")"
        }
    }

    /// One cell on a fresh server and database: the load, then the rows the device holds.
    static func measure(_ cell: Cell, seconds: Double) async throws -> (LoadRun, Int?) {
        if cell.peer != nil {
            let base = ServerClock.system.now.milliseconds / 1000 - 2 * 86_400
            let port = cell.peerPort
            let request = stamped(connections: cell.connections, base: base) { connection, seconds in
                LoadProtocol.ownTracksRequest(
                    user: "bench", token: "unused", latitude: 10 + Double(connection) / 100, longitude: 20.5,
                    seconds: seconds, host: "127.0.0.1", path: "/pub")
            }
            let run = await LoadRun.run(
                port: port, connections: cell.connections, seconds: seconds, request: request)
            return (run, nil)
        }
        let path = try ServerBench.freshDatabase()
        defer { ServerBench.removeDatabase(path) }
        let store = try SQLiteTrackStore(path: path, durability: .powerLoss)
        let token = Tokens.mint(prefix: "bgd")
        let now = ServerClock.system.now
        _ = try await store.addDevice(name: "bench", tokenHash: Tokens.hash(token), at: now)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.leafletDirectory = nil
        configuration.groupCommit.enabled = cell.groupCommit
        configuration.timelineEnabled = settings.timeline
        configuration.singlePointLane = settings.lane
        // Critical only: stopping the server by cancellation logs an error per connection; a
        // failed request shows as a failure of the cell instead.
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let environment = TrackServerEnvironment(store: store, configuration: configuration, logger: logger)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(environment) { port in listening.yield(port) }
        let request = requests(cell.workload, token: token, now: now, connections: cell.connections)
        var lag: Double?
        let run = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw ValidationError("the server did not start") }
            let run = await LoadRun.run(
                port: port, connections: cell.connections, seconds: seconds, request: request)
            // The timeline runs beside ingest: how far behind the last answer it was.
            if cell.workload != .healthz, let timeline = environment.timeline {
                let clock = ContinuousClock()
                let start = clock.now
                _ = try await timeline.timeline(device: "bench", from: .epoch, to: Instant(milliseconds: Int64.max / 2))
                lag = (clock.now - start).seconds
            }
            group.cancelAll()
            return run
        }
        let rows = cell.workload == .healthz ? nil : try await store.device(named: "bench")?.sampleCount
        let pipeline = environment.committer.counters
        if cell.workload != .healthz && cell.groupCommit && pipeline.commits > 0 {
            print(
                "  \(name(cell)) \(cell.connections) conns: \(pipeline.commits) commits, "
                    + String(format: "%.1f requests per commit", Double(pipeline.requests) / Double(pipeline.commits))
                    + (lag.map { String(format: "; the timeline caught up %.0f ms after the last answer", $0 * 1000) }
                        ?? ""))
        }
        try store.close()
        return (run, rows)
    }

    /// The request encoder of a workload: each request a new point (its own time and position).
    static func requests(
        _ workload: Workload, token: String, now: Instant, connections: Int
    ) -> @Sendable (Int, Int) -> [UInt8] {
        let base = now.milliseconds / 1000 - 2 * 86_400
        switch workload {
        case .healthz:
            let bytes = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            return { _, _ in bytes }
        case .ownTracks:
            return stamped(connections: connections, base: base) { connection, seconds in
                LoadProtocol.ownTracksRequest(
                    user: "bench", token: token, latitude: 10 + Double(connection) / 100, longitude: 20.5,
                    seconds: seconds, host: "127.0.0.1")
            }
        case .osmAnd:
            return stamped(connections: connections, base: base) { connection, seconds in
                LoadProtocol.osmAndRequest(
                    id: "bench", token: token, latitude: 10 + Double(connection) / 100, longitude: 20.5,
                    timestamp: seconds, host: "127.0.0.1")
            }
        }
    }

    /// Each connection's request encoded once (``StampedRequest``) and only its time rewritten per
    /// request, the same for ours and the peers': the client takes little of the two cores it
    /// shares with the server measured. `encode(connection, seconds)` encodes a request in full.
    static func stamped(
        connections: Int, base: Int64, _ encode: @escaping @Sendable (Int, Int64) -> [UInt8]
    ) -> @Sendable (Int, Int) -> [UInt8] {
        let templates = (0..<connections).map { StampedRequest(encode($0, base), base: base) }
        return { connection, index in
            let template = templates.indices.contains(connection) ? templates[connection] : nil
            return template?.request(offset: Int64(index)) ?? encode(connection, base + Int64(index))
        }
    }
}
