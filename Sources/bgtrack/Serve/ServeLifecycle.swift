import Hummingbird
import Logging
import ServiceLifecycle
import TrackServer
import UnixSignals

/// Runs the server until SIGTERM or SIGINT and logs each step of its life, so an operator reading
/// the log after a restart sees that it stopped cleanly: `draining` when the signal arrived (no
/// new connections; requests in flight are answered, their commits included), `connections
/// closed` when the last one is gone, then (``DatabaseOptions/withStore(logger:_:)``) `store
/// closed`.
enum ServeLifecycle {
    static func run(
        _ app: some ApplicationProtocol, environment: TrackServerEnvironment, logger: Logger
    ) async throws {
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: app),
                    .init(
                        service: DrainNotice(environment: environment, logger: logger),
                        successTerminationBehavior: .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        logger.notice(
            "connections closed; server stopped",
            metadata: ["connections_open": "\(environment.connectionCounters.snapshot.open)"])
    }
}

/// Waits for the graceful shutdown and logs it.
private struct DrainNotice: Service {
    let environment: TrackServerEnvironment
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        let connections = environment.connectionCounters.snapshot.open
        logger.notice(
            "draining: shutdown requested (SIGTERM or SIGINT); no new connections, finishing the requests in flight",
            metadata: ["connections_open": "\(connections)"])
    }
}
