package import BackgroundCore
import Foundation
import Hummingbird
package import IOSSimulator
import LocationLog
import Logging
package import TrackGeometry
package import TrackServer

/// The real server `bgtrack-bench timeline` (and its test) judges: `bgtrack serve`'s application
/// on 127.0.0.1 (a free port) over a SQLite store in a temporary directory, with the incremental
/// timeline on and its clock the simulated phone's (as in `bgtrack demo`). Each evaluation run
/// gets a device of its own; the phone uploads through the real native protocol and the run's
/// timeline is read back from `GET /v1/devices/{id}/timeline`.
package final class EvaluationServer: @unchecked Sendable {
    let port: Int
    package let store: SQLiteTrackStore
    let clock: SimulatedTime
    private let directory: URL
    private let task: Task<Void, any Error>
    // Guarded by `lock`: connections are made from the simulation's thread.
    private let lock = NSLock()
    private var devices = 0

    private init(port: Int, store: SQLiteTrackStore, clock: SimulatedTime, directory: URL, task: Task<Void, any Error>)
    {
        self.port = port
        self.store = store
        self.clock = clock
        self.directory = directory
        self.task = task
    }

    /// Starts a server whose timeline uses `settings`; stop it with ``stop()``.
    package static func start(settings: TimelineSettings) async throws -> EvaluationServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bgtrack-timeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteTrackStore(path: directory.appendingPathComponent("server.sqlite").path)
        let clock = SimulatedTime(Scenario.defaultStart)
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.timelineEnabled = true
        configuration.timeline = .init(timeline: settings)
        var logger = Logger(label: "bgtrack-bench.timeline")
        // Stopping logs the cancelled child channels at error level; only a crash is worth showing.
        logger.logLevel = .critical
        let environment = TrackServerEnvironment(
            store: store, clock: clock.serverClock, configuration: configuration, logger: logger)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(environment) { port in
            listening.yield(port)
            listening.finish()
        }
        let task = Task {
            defer { listening.finish() }
            try await app.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            _ = await task.result
            throw EvaluationError("the evaluation server did not start listening on 127.0.0.1")
        }
        return EvaluationServer(port: port, store: store, clock: clock, directory: directory, task: task)
    }

    /// A fresh device for one run: its peer (real HTTP to this server) and its timeline reader.
    /// Called from the simulation's thread (it blocks it while the device is registered).
    package func connect(_ configuration: SimulationConfiguration) throws -> TimelineConnection {
        let number = lock.withLock {
            devices += 1
            return devices
        }
        let device = "eval-\(number)-\(configuration.strategy.rawValue)-\(configuration.seed)"
        let token = Tokens.mint(prefix: "bgd")
        let store = self.store
        let start = configuration.scenario.start
        clock.set(start)
        try blockingThrows { _ = try await store.addDevice(name: device, tokenHash: Tokens.hash(token), at: start) }
        let peer = EvaluationPeer(server: base, device: device, token: token, clock: clock, store: store)
        return TimelineConnection(
            peer: peer, timeline: { from, to in try peer.timeline(from: from, to: to) },
            samples: { from, to in
                try blockingThrows { try await store.samples(device: device, from: from, to: to) }.map {
                    let point = SampleValues(
                        time: $0.time, latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy,
                        speed: $0.speed)
                    return (point, $0.trigger)
                }
            })
    }

    var base: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// The SQLite file the server stores into (`bgtrack import --db` writes beside it).
    var databasePath: String { directory.appendingPathComponent("server.sqlite").path }

    /// Stops listening and removes the temporary store.
    package func stop() async {
        task.cancel()
        _ = await task.result
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The server's clock during an evaluation run: the simulated phone's time, set as the
/// simulation advances.
final class SimulatedTime: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Instant

    init(_ start: Instant) { current = start }

    var now: Instant { lock.withLock { current } }
    func set(_ instant: Instant) { lock.withLock { current = instant } }
    var serverClock: ServerClock { ServerClock { self.now } }
}

/// An evaluation failure with a message saying what went wrong.
package struct EvaluationError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Runs `body` on a thread of its own (not Swift's cooperative pool): the simulation blocks its
/// thread on real HTTP, which must not starve the pool the server's handlers run on.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Runs async work to completion from a thread outside Swift's cooperative pool (the
/// simulation's), blocking that thread meanwhile.
package func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = Box<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.set(await body())
        done.signal()
    }
    done.wait()
    guard let value = box.value else { preconditionFailure("the task signalled before storing its result") }
    return value
}

/// ``blocking(_:)`` for work that throws.
package func blockingThrows<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    try blocking { () async -> Result<T, any Error> in
        do { return .success(try await body()) } catch { return .failure(error) }
    }.get()
}

private final class Box<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    var value: T? { lock.withLock { stored } }
    func set(_ value: T) { lock.withLock { stored = value } }
}

extension EvaluationServer {
    /// The evaluation table of `app` (the iOS shell) through a real server started for it (and
    /// stopped after). The runs are on the main actor, as the shell's UIKit code runs; the phone
    /// blocks it on real HTTP, which the server answers from its own threads.
    package static func table(
        scenarios: [String], strategies: [StrategyName], seeds: ClosedRange<UInt64>, app: any HostedAppFactory,
        settings: TimelineSettings = .sampling(every: .seconds(120)),
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        inspect:
            @escaping @Sendable (SimulationConfiguration, TimelineEvaluation.Run, TimelineConnection) throws -> Void =
            { _, _, _ in }
    ) async throws -> [TimelineEvaluation.Row] {
        let server = try await EvaluationServer.start(settings: settings)
        let result = await MainActor.run { () -> Result<[TimelineEvaluation.Row], any Error> in
            Result {
                try TimelineEvaluation.table(
                    scenarios: scenarios, strategies: strategies, seeds: seeds, app: app, settings: settings,
                    connect: server.connect, progress: progress, inspect: inspect)
            }
        }
        await server.stop()
        return try result.get()
    }
}
