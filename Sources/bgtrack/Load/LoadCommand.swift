import ArgumentParser
import BackgroundCore
import Foundation
import LoadGenerator
import TrackServer

/// `bgtrack load`: simulated devices, each with its own token, upload to servers on this machine
/// for a bounded time; then the store is read to check every acknowledged sample is there once.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load-test servers on this machine with simulated devices, then check the store.",
        discussion: """
            Registers --devices devices (load-<run>-<n>, each with its own token) in the store the \
            servers use (--db or --postgres), spreads them round-robin over the --server URLs and \
            uploads over --connections keep-alive connections until --duration (or \
            --requests-per-device) is reached. A failed request (transport error, 408, 429, 5xx) \
            counts as an error and is resent with the same samples. Reports throughput, \
            acknowledgement latency and errors, then reads the store: per device, samples \
            acknowledged but not stored (lost), stored more than once (duplicated), stored but \
            never acknowledged (unexpected). Exits non-zero on any error, loss or duplicate. The \
            devices are revoked at the end (their rows are kept) unless --keep-devices.
            """)

    static let maxDevices = 10_000
    static let maxConnections = 1_024
    /// The server's default `--max-batch` (``ServerConfiguration/maxSamplesPerBatch``).
    static let maxBatch = ServerConfiguration().maxSamplesPerBatch

    @OptionGroup var database: DatabaseOptions
    @Option(
        name: .customLong("server"),
        help: ArgumentHelp(
            "A server on this machine, http://127.0.0.1:PORT (repeatable: devices are spread round-robin).",
            valueName: "url"))
    var servers: [String] = []
    @Option(help: "Simulated devices (1…10000), each with its own token.") var devices = 10
    @Option(help: "How long to send: 90s, 10m or 1h (1 s…1 h).") var duration = "1m"
    @Option(
        name: .customLong("protocol"),
        help: "The protocol the devices speak: native, overland, owntracks or osmand.")
    var protocolName = LoadProtocol.native.rawValue
    @Option(help: "Samples per request (native, overland: 1…1000, default 500; owntracks, osmand: 1).")
    var batch: Int?
    @Option(help: "Keep-alive connections (1…1024, at most --devices; default: min(devices, 64)).")
    var connections: Int?
    @Option(help: "Stop each device after this many acknowledged requests (the run ends earlier if all are done).")
    var requestsPerDevice: Int?
    @Flag(help: "Leave the load devices active at the end (by default they are revoked; rows are kept).")
    var keepDevices = false
    @Flag(help: "Print the report as JSON.") var json = false

    func validate() throws {
        guard !servers.isEmpty else {
            throw ValidationError(
                "--server is required: the URL of a server on this machine, e.g. http://127.0.0.1:8080")
        }
        guard servers.count <= 64 else { throw ValidationError("at most 64 --server URLs, got \(servers.count)") }
        let parsed = try targets()
        guard Set(parsed).count == parsed.count else {
            throw ValidationError("a --server URL is given twice; each server once")
        }
        guard (1...Self.maxDevices).contains(devices) else {
            throw ValidationError("--devices \(devices) must be between 1 and \(Self.maxDevices)")
        }
        guard devices >= servers.count else {
            throw ValidationError(
                "--devices \(devices) is fewer than the \(servers.count) servers; give each one device at least")
        }
        _ = try runDuration()
        let kind = try loadProtocol()
        if let batch {
            if kind.isSinglePoint {
                guard batch == 1 else {
                    throw ValidationError(
                        "--batch \(batch) does not apply to \(kind.rawValue): each request carries one point; "
                            + "leave --batch out or use native or overland")
                }
            } else {
                guard (1...Self.maxBatch).contains(batch) else {
                    throw ValidationError(
                        "--batch \(batch) must be between 1 and \(Self.maxBatch) (the server's default --max-batch)")
                }
            }
        }
        if let connections {
            guard (1...Self.maxConnections).contains(connections) else {
                throw ValidationError("--connections \(connections) must be between 1 and \(Self.maxConnections)")
            }
            guard connections <= devices else {
                throw ValidationError(
                    "--connections \(connections) is more than --devices \(devices); each connection serves at least one device"
                )
            }
            guard connections >= servers.count else {
                throw ValidationError(
                    "--connections \(connections) is fewer than the \(servers.count) servers; each server needs one")
            }
        }
        if let requestsPerDevice, !(1...1_000_000).contains(requestsPerDevice) {
            throw ValidationError("--requests-per-device \(requestsPerDevice) must be between 1 and 1000000")
        }
    }

    /// The `--server` URLs, checked: http:// to a loopback address only.
    func targets() throws -> [LoadTarget] {
        try servers.map { text in
            do throws(LoadTargetError) {
                return try LoadTarget(url: text)
            } catch {
                throw ValidationError("--server \(error.description)")
            }
        }
    }

    func loadProtocol() throws -> LoadProtocol {
        guard let kind = LoadProtocol(rawValue: protocolName.lowercased()) else {
            throw ValidationError(
                "--protocol '\(protocolName.prefix(40))' is not one of native, overland, owntracks, osmand")
        }
        return kind
    }

    /// `--duration`: a whole number and s, m or h, 1 second to 1 hour.
    func runDuration() throws -> Duration {
        guard let seconds = DurationArgument.seconds(duration, in: 1...3600) else {
            throw ValidationError(
                "--duration '\(duration.prefix(40))' is not a duration of 1 second to 1 hour, e.g. 90s, 10m or 1h")
        }
        return .seconds(seconds)
    }

    /// The plan for `names` and their tokens, at `now` (epoch milliseconds).
    func plan(devices names: [(name: String, token: String)], now: Int64) throws -> LoadPlan {
        let kind = try loadProtocol()
        return LoadPlan(
            targets: try targets(), devices: names, protocol: kind,
            batch: kind.isSinglePoint ? 1 : (batch ?? 500),
            connections: connections ?? min(devices, 64), duration: try runDuration(),
            requestsPerDevice: requestsPerDevice, now: now)
    }

    func run() async throws {
        let json = json
        // Written at once, not through print's buffer: with output to a file or pipe the progress
        // lines would otherwise appear only at the end of a ten-minute run.
        let outcome = try await perform { line in
            if !json { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        }
        if json {
            print(try outcome.jsonText())
        } else {
            print(outcome.text())
        }
        if !outcome.passed { throw ExitCode.failure }
    }

    /// Registers the devices, runs the load, checks the store and revokes the devices (unless
    /// `--keep-devices`). `progress` receives a line about what is happening every 10 s.
    func perform(progress: (@Sendable (String) -> Void)? = nil) async throws -> LoadOutcome {
        let progress = progress ?? { _ in }
        let runID = String(format: "%06x", UInt32.random(in: 0...0xFF_FFFF))
        let names = (0..<devices).map { (name: "load-\(runID)-\($0)", token: Tokens.mint(prefix: "bgd")) }
        return try await database.withStore { store in
            let now = ServerClock.system.now
            for device in names {
                do {
                    _ = try await store.addDevice(name: device.name, tokenHash: Tokens.hash(device.token), at: now)
                } catch let error as TrackStoreError {
                    throw ValidationError(error.description)
                }
            }
            let plan = try plan(devices: names, now: now.milliseconds)
            progress(
                "run \(runID): \(devices) devices (\(plan.protocol.rawValue), \(plan.batch) sample(s) per request) "
                    + "on \(plan.targets.count) server(s) over \(plan.connections) connection(s), for \(duration)"
                    + (requestsPerDevice.map { " or \($0) requests per device" } ?? "") + ", db \(database.name)")
            let result = await run(plan, progress: progress)
            progress("sent; checking the store")
            let check = try await LoadCheck.run(store: store, plan: plan, result: result)
            if !keepDevices {
                for device in names {
                    _ = try await store.revokeDevice(named: device.name, at: ServerClock.system.now)
                }
            }
            return LoadOutcome(
                runID: runID, plan: plan, result: result, check: check, database: database.name,
                devicesKept: keepDevices)
        }
    }

    /// Runs the load, printing running totals through `progress` every 10 seconds.
    private func run(_ plan: LoadPlan, progress: @escaping @Sendable (String) -> Void) async -> LoadResult {
        let totals = LoadProgress()
        return await withTaskGroup(of: LoadResult?.self) { group in
            group.addTask { await DeviceLoad.run(plan, progress: totals) }
            group.addTask {
                let clock = ContinuousClock()
                let start = clock.now
                while (try? await Task.sleep(for: .seconds(10))) != nil {
                    let now = totals.snapshot
                    progress(
                        "  \(Int((clock.now - start).seconds)) s: \(now.samples) samples in \(now.requests) "
                            + "requests acknowledged, \(now.errors) errors")
                }
                return nil
            }
            var result = LoadResult()
            for await finished in group {
                if let finished {
                    result = finished
                    group.cancelAll()
                }
            }
            return result
        }
    }
}
