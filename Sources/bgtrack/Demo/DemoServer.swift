import BackgroundCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import TrackServer

/// The server's clock during a demo: the simulated phone's time while the day runs (so session
/// expiry, "last seen" and the future-time check agree with the phone), the wall clock after.
final class DemoClock: @unchecked Sendable {
    private let lock = NSLock()
    private var simulated: Instant?

    var now: Instant { lock.withLock { simulated } ?? ServerClock.system.now }
    func set(_ instant: Instant?) { lock.withLock { simulated = instant } }
    var serverClock: ServerClock { ServerClock { self.now } }
}

/// `bgtrack serve`'s application on 127.0.0.1, started and stopped by the demo. The first start
/// binds the asked port (0 picks a free one); later starts reuse the port it got.
final class DemoServer: @unchecked Sendable {
    private let lock = NSLock()
    private let environment: TrackServerEnvironment
    private var running: (group: ServiceGroup, task: Task<Void, any Error>)?
    private var boundPort: Int

    init(environment: TrackServerEnvironment, port: Int) {
        self.environment = environment
        self.boundPort = port
    }

    var port: Int { lock.withLock { boundPort } }
    var isRunning: Bool { lock.withLock { running != nil } }

    /// Starts listening and returns the port, or throws what stopped the server from binding.
    @discardableResult
    func start() async throws -> Int {
        let (ports, continuation) = AsyncStream.makeStream(of: Result<Int, any Error>.self)
        let app = Application(
            router: buildRouter(environment),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "bgtrack"),
            onServerRunning: { channel in
                continuation.yield(.success(channel.localAddress?.port ?? 0))
                continuation.finish()
            },
            logger: environment.logger)
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: environment.logger))
        let task = Task {
            do {
                try await group.run()
            } catch {
                continuation.yield(.failure(error))
                continuation.finish()
                throw error
            }
            continuation.finish()
        }
        for await result in ports {
            let bound = try result.get()
            lock.withLock {
                running = (group, task)
                boundPort = bound
            }
            return bound
        }
        throw DemoError("the server stopped before it was listening on 127.0.0.1:\(port)")
    }

    /// Stops listening and waits until the server has closed its socket.
    func stop() async {
        let stopping = lock.withLock {
            defer { running = nil }
            return running
        }
        guard let stopping else { return }
        await stopping.group.triggerGracefulShutdown()
        _ = await stopping.task.result
    }
}

/// A demo failure with a message saying what to do.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
