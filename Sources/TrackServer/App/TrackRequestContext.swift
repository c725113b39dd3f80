public import Hummingbird
public import NIOCore

/// The routes' request context: Hummingbird's basic one plus the client's address, which the
/// share pages' per-address rate limit needs (`nil` in router tests without a connection).
public struct TrackRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
