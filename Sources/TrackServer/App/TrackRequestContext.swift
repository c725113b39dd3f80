public import Hummingbird
import Logging
public import NIOCore

/// The routes' request context: Hummingbird's basic one plus who sent the request: the socket's
/// peer and, behind a trusted proxy (`serve --trusted-proxy`), the client it forwarded for, which
/// the share pages' per-address rate limit, the request log and the metrics use (`nil` address in
/// router tests without a connection).
public struct TrackRequestContext: RequestContext, RemoteAddressRequestContext, ClientRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The socket's peer until ``ClientAddressMiddleware`` has read the forwarding headers.
    public var client: ForwardedClient

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        client = ForwardedClient(address: remoteAddress?.ipAddress, scheme: nil, proxy: nil)
    }
}

/// A request context that knows the client's address (``TrackRequestContext``).
public protocol ClientRequestContext: RequestContext {
    var client: ForwardedClient { get set }
}

extension RequestContext {
    /// The client's address for limits and logs: the forwarded client behind a trusted proxy,
    /// else the socket's peer; `unknown` without either.
    var clientAddress: String {
        (self as? any ClientRequestContext)?.client.address
            ?? (self as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress ?? "unknown"
    }
}

/// Runs first: decides the client (``TrustedProxies/client(peer:headers:)``), puts it in the
/// request's logger metadata (`client`, and `proxy` when one forwarded it) and counts forwarded
/// requests and ignored forwarding headers for `/metrics`.
struct ClientAddressMiddleware<Context: ClientRequestContext>: RouterMiddleware {
    var trusted: TrustedProxies
    var metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let peer = context.client.address
        let client = trusted.client(peer: peer, headers: request.headers)
        context.client = client
        if let address = client.address { context.logger[metadataKey: "client"] = .string(address) }
        if client.proxy != nil {
            context.logger[metadataKey: "proxy"] = .string(client.proxy ?? "")
            metrics.countForwarding(believed: true)
        } else if request.headers.hasForwarding {
            metrics.countForwarding(believed: false)
        }
        return try await next(request, context)
    }
}
