import ArgumentParser
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LocationLog
import Logging
import TrackServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bgtrack demo`: the whole system in one command. A simulated iPhone runs the iOS shell an app
/// links (`BackgroundTracker`, through AppleShadow, as `simulate` does) through a day in
/// the background with the real phone store, uploading through its background `URLSession` over
/// real HTTP to a real server on loopback; faults on the way; at the end a report that counts every
/// sample and a map.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Simulate a phone's day uploading to a real local server, then show the report and the map.",
        discussion: """
            The day is today in this machine's time zone (--day and --time-zone choose another), \
            the commute scenario with faults at local times: a force-quit and relaunch (10:30), two \
            hours without network (13:00-15:00), a revoked and renewed session (16:00, 16:45), the \
            server stopped and restarted (17:00-17:40) and Low Power Mode in the evening \
            (19:30-23:30). A second run on the same --data without --day simulates the day after \
            the last one and keeps the earlier ones.
            """)

    @Option(help: "Keep-alive strategy: \(StrategyName.allCases.map(\.rawValue).joined(separator: ", ")).")
    var strategy: StrategyName = .adaptive
    @Option(help: "iOS major version to simulate.") var ios: Int = 17
    @Option(help: "Location authorisation.") var auth: AuthorizationOption = .always
    @Option(help: "The local day to simulate, YYYY-MM-DD; default: today (or the day after the last one in --data).")
    var day: String?
    @Option(
        help:
            "The phone's IANA time zone, e.g. Europe/Berlin (`bgtrack time-zones` lists them); default: this machine's."
    )
    var timeZone: String?
    @Option(help: "Simulated hours (1…72); default: the local day's length (24, or 23 or 25 across a DST change).")
    var hours: Double?
    @Option(help: "Random seed; the same seed gives the same day.") var seed: UInt64 = 1
    @Option(help: "Directory for the server's and the phone's databases, tokens and reports.")
    var data: String = "./demo-data"
    @Option(help: "Port on 127.0.0.1 (0 picks a free one).") var port: Int = 0
    @Option(help: "Map tile URL with {z}/{x}/{y}; none by default (works offline).") var tileURL: String?
    @Flag(help: "Exit after the report instead of serving the map until Ctrl-C.") var exit = false
    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "Add a fault to the day at a local time, as HH:MM=EVENT (repeatable), e.g. 03:10=reboot, "
                + "07:30=unlock, 12:00=storage-full, 11:30=network-off; the events of `bgtrack simulate --at`."))
    var events: [String] = []

    func validate() throws {
        guard IOSProfile.supportedVersions.contains(ios) else {
            throw ValidationError(
                "--ios \(ios) is not a simulated profile; use one of: "
                    + IOSProfile.supportedVersions.map(String.init).joined(separator: ", ") + ".")
        }
        if let hours, !(hours.isFinite && (1...72).contains(hours)) {
            throw ValidationError("--hours \(hours) is outside 1…72; the demo runs one to three days.")
        }
        _ = try TimeZoneArgument.zone(timeZone)
        _ = try dayNumber()
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a TCP port (0…65535)") }
        guard !data.isEmpty else { throw ValidationError("--data needs a directory path, e.g. ./demo-data") }
        do {
            _ = try parsedEvents()
        } catch {
            throw ValidationError(error.description)
        }
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

    /// The `--at` faults.
    func parsedEvents() throws(ScenarioEventError) -> [ScenarioEvent] {
        try events.map { (text: String) throws(ScenarioEventError) in try ScenarioEvent(parsing: text) }
    }

    /// The demo's day with the `--at` faults added (times of the local day).
    func demoDay(start: Instant) -> Scenario {
        Scenario.demoDay(start: start).adding((try? parsedEvents()) ?? [])
    }

    /// `--day` as a day number since 1970-01-01; `nil` when not given.
    func dayNumber() throws -> Int? {
        guard let day else { return nil }
        guard day.utf8.count == 10, let instant = Instant(iso8601: day + "T00:00:00Z"),
            DemoRun.isoDay(instant) == day, (2001...9998).contains(Int(day.prefix(4)) ?? 0)
        else {
            throw ValidationError(
                "--day '\(day.prefix(20))' is not a date YYYY-MM-DD from 2001 to 9998, e.g. 2026-03-29")
        }
        return Int(instant.milliseconds / 86_400_000)
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
        let zone = try TimeZoneArgument.zone(options.timeZone)
        let localTime = LocalTime(zone: zone)
        let dayNumber = try Self.day(
            asked: options.dayNumber(), today: localTime.day(of: Instant(seconds: Date().timeIntervalSince1970)),
            simulated: state.days, data: options.data)
        let dayRange = localTime.range(ofDay: dayNumber)
        let dayStart = dayRange.lowerBound
        let hours = options.hours ?? Double((dayRange.upperBound - dayStart).seconds) / 3600
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

        let day = LocalTime.isoDay(dayNumber)
        let end = dayStart + .milliseconds(Int64(hours * 3_600_000))
        // The scenario's times are local wall-clock times: 17:00 is 16 or 18 hours after midnight
        // on a day the clocks change.
        let elapsed = { (wall: Double) in Self.elapsed(wall: wall, day: dayNumber, in: localTime, from: dayStart) }
        let restartAt = dayStart + .milliseconds(Int64(elapsed(Scenario.DemoFaults.serverRestart) * 1000))
        let bar = ProgressBar(label: "simulating \(day) (\(zone.identifier))")
        let totalMinutes = Int(hours * 60)
        let peer = HTTPPeer(
            plan: .init(
                device: state.device, deviceToken: state.deviceToken,
                serverRestart: restartAt < end
                    ? (restartAt, .seconds(Scenario.DemoFaults.serverDownSeconds)) : nil,
                progress: { now in bar.update(Int((now - dayStart).seconds / 60), of: totalMinutes) },
                timeZone: zone.identifier),
            server: server, clock: clock, store: store)

        var configuration = SimulationConfiguration(
            strategy: options.strategy, ios: options.ios, app: IOSShell(), authorization: options.auth.authorization,
            scenario: options.demoDay(start: dayStart).inLocalTime(elapsed), hours: hours, seed: options.seed)
        configuration.peer = peer
        configuration.store = phone
        let firstSeq = try phone.nextSeq()
        let simulation = configuration
        // On the main actor, as UIKit code runs: the peer blocks it on real HTTP, which the
        // server answers from Swift's pool and its own threads, never the main actor.
        let report = await MainActor.run {
            var run = Simulation(simulation)
            return run.run()
        }
        bar.update(totalMinutes, of: totalMinutes)
        bar.finish()
        if !server.isRunning { try await server.start() }  // the day ended inside the restart window
        clock.set(end)
        // Map reads never write: the year map draws the detail levels that exist, so the day's are
        // worked out here, as `serve`'s DetailWorker does in the background, before any page is read.
        try await DetailWorker(environment: environment).workPending()

        let accounting = try await DemoAccounting.count(
            phone: phone, firstSeq: firstSeq, server: store, device: state.device, from: dayStart, to: end)
        state.days.append(day)
        try state.save(to: statePath)

        let mapURL =
            "http://127.0.0.1:\(server.port)/devices/\(state.device)?day=\(day)&token=\(state.operatorToken)"
        let mapFile = directory.appendingPathComponent("map-\(day).html")
        try await Self.saveMap(from: mapURL, to: mapFile)
        let stored = try await store.samples(device: state.device, from: dayStart, to: end, limit: nil)
        let text = DemoReportText(
            day: day, localTime: localTime, hours: hours, first: stored.first?.time, last: stored.last?.time,
            options: options, report: report, tally: peer.result, accounting: accounting,
            mapURL: mapURL, mapFile: mapFile.path,
            indexURL: "http://127.0.0.1:\(server.port)/?token=\(state.operatorToken)",
            intervals: try await store.reportedIntervals(device: state.device, from: dayStart, to: end)
        ).render()
        try Data(text.utf8).write(to: directory.appendingPathComponent("report-\(day).txt"))
        return Outcome(text: text, server: server, accounting: accounting)
    }

    /// The day to simulate: `asked` (unless --data holds it already), else today, or the day after
    /// the last one simulated when that is today or later.
    /// - Throws: `DemoError` when the asked day was simulated in this --data before.
    static func day(asked: Int?, today: Int, simulated days: [String], data: String) throws -> Int {
        let done = days.compactMap { Instant(iso8601: $0 + "T00:00:00Z") }.map { Int($0.milliseconds / 86_400_000) }
        if let asked {
            guard !done.contains(asked) else {
                throw DemoError(
                    "--day \(LocalTime.isoDay(asked)) was simulated in \(data) already; pick another day or another --data"
                )
            }
            return asked
        }
        guard let last = done.max(), last >= today else { return today }
        return last + 1
    }

    /// Seconds after `start` (local midnight of `day`) at which the local clock shows `wall`
    /// seconds past midnight; a wall time the clocks skip maps to the moment after the skip.
    static func elapsed(wall: Double, day: Int, in localTime: LocalTime, from start: Instant) -> Double {
        let naive = Int64(day) * 86_400_000 + Int64((wall * 1000).rounded())
        let guess = naive - Int64(localTime.offsetSeconds(at: Instant(milliseconds: naive))) * 1000
        let instant = naive - Int64(localTime.offsetSeconds(at: Instant(milliseconds: guess))) * 1000
        return Double(instant - start.milliseconds) / 1000
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
