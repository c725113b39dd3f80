import ArgumentParser
import BackgroundCore
import Foundation
import IOSSimulator
import LocationLog
import Logging
import TrackServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bgtrack demo`: the whole system in one command. A simulated iPhone lives through a day in the
/// background with the real phone store and sync, uploading over real HTTP to a real server on
/// loopback; faults on the way; at the end a report that counts every sample and a map.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Simulate a phone's day uploading to a real local server, then show the report and the map.",
        discussion: """
            The day is the commute scenario with faults: a force-quit and relaunch (10:30), two hours \
            without network (13:00-15:00), a revoked and renewed session (16:00, 16:45), the server \
            stopped and restarted (17:00-17:40) and Low Power Mode in the evening (19:30-23:30). \
            A second run on the same --data simulates the next day and keeps the earlier ones.
            """)

    @Option(help: "Keep-alive strategy: \(StrategyName.allCases.map(\.rawValue).joined(separator: ", ")).")
    var strategy: StrategyName = .adaptive
    @Option(help: "iOS major version to simulate.") var ios: Int = 17
    @Option(help: "Location authorisation.") var auth: AuthorizationOption = .always
    @Option(help: "Simulated hours (1…72).") var hours: Double = 24
    @Option(help: "Random seed; the same seed gives the same day.") var seed: UInt64 = 1
    @Option(help: "Directory for the server's and the phone's databases, tokens and reports.")
    var data: String = "./demo-data"
    @Option(help: "Port on 127.0.0.1 (0 picks a free one).") var port: Int = 0
    @Option(help: "Map tile URL with {z}/{x}/{y}; none by default (works offline).") var tileURL: String?
    @Flag(help: "Exit after the report instead of serving the map until Ctrl-C.") var exit = false

    func validate() throws {
        guard IOSProfile.supportedVersions.contains(ios) else {
            throw ValidationError(
                "--ios \(ios) is not a simulated profile; use one of: "
                    + IOSProfile.supportedVersions.map(String.init).joined(separator: ", ") + ".")
        }
        guard hours.isFinite, (1...72).contains(hours) else {
            throw ValidationError("--hours \(hours) is outside 1…72; the demo runs one to three days.")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a TCP port (0…65535)") }
        guard !data.isEmpty else { throw ValidationError("--data needs a directory path, e.g. ./demo-data") }
        if let tileURL, !(tileURL.contains("{z}") && tileURL.contains("{x}") && tileURL.contains("{y}")) {
            throw ValidationError("--tile-url must contain {z}, {x} and {y}, e.g. http://tiles.local/{z}/{x}/{y}.png")
        }
    }

    func run() async throws {
        let began = ContinuousClock.now
        let directory = URL(fileURLWithPath: data, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DemoError("cannot create --data \(data): \(error.localizedDescription); pick a writable directory")
        }
        let outcome = try await DemoRun(options: self, directory: directory).run()
        say(outcome.text)
        say("demo finished in \(String(format: "%.1f", (ContinuousClock.now - began).seconds)) s")
        if exit {
            await outcome.server.stop()
            return
        }
        say("\nServing the map until Ctrl-C (or run with --exit).")
        await waitForInterrupt()
        await outcome.server.stop()
    }

    /// Returns when SIGINT or SIGTERM arrives.
    private func waitForInterrupt() async {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        for await _ in signals { break }
        sources.forEach { $0.cancel() }
    }
}

/// One demo day, from opening the databases to the report.
struct DemoRun {
    let options: DemoCommand
    let directory: URL

    struct Outcome {
        var text: String
        var server: DemoServer
        var accounting: DemoAccounting
    }

    func run() async throws -> Outcome {
        let statePath = directory.appendingPathComponent("demo.json")
        let store = try SQLiteTrackStore(path: directory.appendingPathComponent("server.sqlite").path)
        var state =
            try DemoState.load(from: statePath)
            ?? DemoState(deviceToken: Tokens.mint(prefix: "bgd"), operatorToken: Tokens.mint(prefix: "bgo"))
        let dayStart = Self.nextDay(after: state.days)
        if try await store.device(named: state.device) == nil {
            _ = try await store.addDevice(
                name: state.device, tokenHash: Tokens.hash(state.deviceToken), at: dayStart)
        }
        do {
            try await store.addOperator(name: "demo", tokenHash: Tokens.hash(state.operatorToken), at: dayStart)
        } catch TrackStoreError.duplicateName {
            // Registered by an earlier run.
        }
        try state.save(to: statePath)

        let (phone, opened) = try LocationStore.open(
            path: directory.appendingPathComponent("phone.sqlite").path, now: dayStart)
        if let message = opened.message { say(message) }

        let clock = DemoClock()
        clock.set(dayStart)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = "127.0.0.1"
        serverConfiguration.port = options.port
        serverConfiguration.tileURL = options.tileURL
        // Above the phone's 30-minute upload interval, so a healthy phone never shows offline.
        serverConfiguration.offlineThreshold = .seconds(35 * 60)
        var logger = Logger(label: "bgtrack.demo")
        logger.logLevel = .error
        let environment = TrackServerEnvironment(
            store: store, clock: clock.serverClock, configuration: serverConfiguration, logger: logger)
        let server = DemoServer(environment: environment, port: options.port)
        let port = try await server.start()
        say("server: http://127.0.0.1:\(port)  (data: \(directory.path))")

        let day = Self.isoDay(dayStart)
        let end = dayStart + .milliseconds(Int64(options.hours * 3_600_000))
        let restartAt = dayStart + .seconds(Scenario.DemoFaults.serverRestart)
        let bar = ProgressBar(label: "simulating \(day)")
        let totalMinutes = Int(options.hours * 60)
        let peer = HTTPPeer(
            plan: .init(
                device: state.device, deviceToken: state.deviceToken,
                serverRestart: restartAt < end
                    ? (restartAt, .seconds(Scenario.DemoFaults.serverDownSeconds)) : nil,
                progress: { now in bar.update(Int((now - dayStart).seconds / 60), of: totalMinutes) }),
            server: server, clock: clock, store: store)

        var configuration = SimulationConfiguration(
            strategy: options.strategy, ios: options.ios, authorization: options.auth.authorization,
            scenario: .demoDay(start: dayStart), hours: options.hours, seed: options.seed)
        configuration.peer = peer
        configuration.store = phone
        let firstSeq = try phone.nextSeq()
        let simulation = configuration
        let report = await withCheckedContinuation { (continuation: CheckedContinuation<SimulationReport, Never>) in
            // Its own thread: the peer blocks it on real HTTP, which must not block Swift's pool.
            let thread = Thread {
                var run = Simulation(simulation)
                continuation.resume(returning: run.run())
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        bar.update(totalMinutes, of: totalMinutes)
        bar.finish()
        if !server.isRunning { try await server.start() }  // the day ended inside the restart window
        clock.set(end)

        let accounting = try await DemoAccounting.count(
            phone: phone, firstSeq: firstSeq, server: store, device: state.device, from: dayStart, to: end)
        state.days.append(day)
        try state.save(to: statePath)

        let mapURL =
            "http://127.0.0.1:\(server.port)/devices/\(state.device)?day=\(day)&token=\(state.operatorToken)"
        let mapFile = directory.appendingPathComponent("map-\(day).html")
        try await Self.saveMap(from: mapURL, to: mapFile)
        let text = DemoReportText(
            day: day, options: options, report: report, tally: peer.result, accounting: accounting,
            mapURL: mapURL, mapFile: mapFile.path,
            indexURL: "http://127.0.0.1:\(server.port)/?token=\(state.operatorToken)",
            intervals: try await store.reportedIntervals(device: state.device, from: dayStart, to: end)
        ).render()
        try Data(text.utf8).write(to: directory.appendingPathComponent("report-\(day).txt"))
        return Outcome(text: text, server: server, accounting: accounting)
    }

    /// The day after the last simulated one, or the scenario's first day.
    static func nextDay(after days: [String]) -> Instant {
        let starts = days.compactMap { Instant(iso8601: $0 + "T00:00:00Z") }
        guard let last = starts.max() else { return Scenario.defaultStart }
        return last + .seconds(86_400)
    }

    static func isoDay(_ instant: Instant) -> String { String(instant.iso8601.prefix(10)) }

    /// Saves the map page as the server renders it, for the report's file path.
    static func saveMap(from url: String, to file: URL) async throws {
        guard let address = URL(string: url) else { throw DemoError("bad map URL \(url)") }
        let (body, response) = try await URLSession.shared.data(from: address)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw DemoError("the map page answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        try body.write(to: file)
    }
}

/// Writes a line to standard output at once (unbuffered even into a pipe or file), so a script
/// reading the demo's output sees the report while the server keeps running.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
