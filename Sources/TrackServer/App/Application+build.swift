import HTTPTypes
public import Hummingbird
import Logging
import NIOCore

/// The routes of the track server; used by `bgtrack serve` and by the in-process tests.
///
/// ```swift
/// let router = buildRouter(environment)
/// let app = Application(router: router)
/// ```
public func buildRouter(_ environment: TrackServerEnvironment) -> Router<TrackRequestContext> {
    let router = Router(context: TrackRequestContext.self)
    router.middlewares.add(
        ClientAddressMiddleware(trusted: environment.configuration.trustedProxies, metrics: environment.metrics))
    router.middlewares.add(SecurityHeadersMiddleware(tileURL: environment.configuration.tileURL))
    router.middlewares.add(RequestLogMiddleware(level: .info))
    router.middlewares.add(
        ErrorAndMetricsMiddleware(metrics: environment.metrics, storage: environment.storage, clock: environment.clock))
    OpsController(environment).addRoutes(to: router)
    IngestController(environment).addRoutes(to: router)
    SessionController(environment).addRoutes(to: router)
    DeviceController(environment).addRoutes(to: router)
    TrackController(environment).addRoutes(to: router)
    GapController(environment).addRoutes(to: router)
    MapController(environment).addRoutes(to: router)
    ImportController(environment).addRoutes(to: router)
    TimelineController(environment).addRoutes(to: router)
    PageController(environment).addRoutes(to: router)
    // Share links, retention and erasure: `GET /s/{secret}`, the operator's `/v1/shares` and
    // `DELETE /v1/devices/{id}?data=true`.
    SharePageController(environment).addRoutes(to: router)
    ShareController(environment).addRoutes(to: router)
    ErasureController(environment).addRoutes(to: router)
    return router
}

/// The server application: ``buildRouter(_:)`` bound to the configured host and port.
/// - Parameters:
///   - onListening: called with the bound port once the server listens (port 0 picks a free one).
public func buildApplication(
    _ environment: TrackServerEnvironment, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let limits = environment.configuration.connections
    let counters = environment.connectionCounters
    let security = SecurityHeadersMiddleware<TrackRequestContext>(tileURL: environment.configuration.tileURL)
    let lane = environment.configuration.singlePointLane ? IngestController(environment) : nil
    return Application(
        router: buildRouter(environment),
        server: .http1(
            // No Hummingbird idle timeout: the guard's sees every request, the lane's included.
            configuration: .init(
                additionalChannelHandlers: [ConnectionGuard(limits: limits, counters: counters)]
                    + (lane.map { [SinglePointLane(ingest: $0, security: security)] } ?? []),
                idleTimeout: nil)),
        configuration: .init(
            address: .hostname(environment.configuration.host, port: environment.configuration.port),
            serverName: "bgtrack"
        ),
        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
        logger: environment.logger
    )
}
