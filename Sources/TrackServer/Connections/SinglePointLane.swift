import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers single OwnTracks and OsmAnd points on the connection's event loop, without the router.
///
/// Through Hummingbird's router each request is a hop from the event loop to a Swift task and
/// back; on two cores those hops, not the parsing or the commit, bounded single-point ingest
/// (issue 23 item 5: `/healthz` alone topped out near 14,000 requests a second). This handler sits
/// after the ``ConnectionGuard`` and before the router. A request it may take (``LaneRoute``) is
/// read whole (at most ``maxBody`` bytes), handed to ``IngestController/laneIngest(_:head:body:security:eventLoop:tokenHashes:peer:answer:)``,
/// and answered from the group commit's completion, after the fsync, like the router's answer.
/// Everything else, and every request the lane lets go of (an unknown token, a message that is
/// not one plain location, a commit that failed), goes to the router unchanged, so errors,
/// quarantines and refusals are the router's, in one place.
///
/// Answers stay in request order: while a request is being answered (here or by the router), the
/// parts of the next ones wait here and the socket is not read further.
final class SinglePointLane: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// A body larger than this goes to the router (which applies the server's body limit).
    static let maxBody = 64 << 10

    private enum State {
        /// Between requests.
        case idle
        /// A request the lane may take: its body arriving.
        case reading(LaneRoute, HTTPRequest, ByteBuffer)
        /// The lane took it and waits for its commit (its trailers kept for the router).
        case answering(HTTPRequest, ByteBuffer, HTTPFields?)
        /// The router has the request: its parts pass, until both it and its answer ended.
        case routing(requestEnded: Bool, responseEnded: Bool)
    }

    private let ingest: IngestController
    private let security: SecurityHeadersMiddleware<TrackRequestContext>
    private var state = State.idle
    /// Parts of the requests after the one being answered.
    private var waiting = CircularBuffer<HTTPRequestPart>()
    /// A read the channel asked for while parts wait.
    private var readHeld = false
    /// A quiesce (graceful shutdown) that arrived while the lane answered.
    private var quiesceHeld: Any?
    private var removed = false
    private let tokenHashes = LaneTokenHashes()

    init(ingest: IngestController, security: SecurityHeadersMiddleware<TrackRequestContext>) {
        self.ingest = ingest
        self.security = security
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        waiting.removeAll()
    }

    func channelInactive(context: ChannelHandlerContext) {
        removed = true
        waiting.removeAll()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if isBusy {
            waiting.append(part)
        } else {
            handle(part, context: context)
        }
    }

    func read(context: ChannelHandlerContext) {
        if waiting.isEmpty {
            context.read()
        } else {
            readHeld = true
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), case .routing(let requestEnded, _) = state {
            state = .routing(requestEnded: requestEnded, responseEnded: true)
            context.write(data, promise: promise)
            if requestEnded { becomeIdle(context) }
            return
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        switch state {
        case .reading, .answering: quiesceHeld = event
        case .idle, .routing: context.fireUserInboundEventTriggered(event)
        }
    }

    /// A request is being answered: the next one's parts wait.
    private var isBusy: Bool {
        switch state {
        case .idle, .reading: false
        case .answering: true
        case .routing(let requestEnded, _): requestEnded
        }
    }

    private func handle(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch (state, part) {
        case (.idle, .head(let head)):
            if let route = LaneRoute(head) {
                state = .reading(route, head, context.channel.allocator.buffer(capacity: 0))
            } else {
                state = .routing(requestEnded: false, responseEnded: false)
                context.fireChannelRead(wrapInboundOut(part))
            }
        case (.reading(let route, let head, var body), .body(var chunk)):
            guard body.readableBytes + chunk.readableBytes <= Self.maxBody else {
                handToRouter(head, body, context: context)
                state = .routing(requestEnded: false, responseEnded: false)
                context.fireChannelRead(wrapInboundOut(.body(chunk)))
                return
            }
            state = .idle  // drop the buffer's second reference before writing to it
            body.writeBuffer(&chunk)
            state = .reading(route, head, body)
        case (.reading(let route, let head, let body), .end(let trailers)):
            state = .answering(head, body, trailers)
            // The answer comes on this connection's event loop.
            let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let taken = ingest.laneIngest(
                route, head: head, body: body, security: security, eventLoop: context.eventLoop,
                tokenHashes: tokenHashes, peer: context.channel.remoteAddress?.ipAddress
            ) { answer in
                let (lane, context) = loop.value
                lane.finish(answer, context: context)
            }
            if !taken { finish(.router, context: context) }
        case (.routing(false, let responseEnded), _):
            context.fireChannelRead(wrapInboundOut(part))
            if case .end = part {
                state = .routing(requestEnded: true, responseEnded: responseEnded)
                if responseEnded { becomeIdle(context) }
            }
        default:
            // A body or end with no head before it: the router's to refuse.
            state = .routing(requestEnded: false, responseEnded: false)
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    /// The lane's answer to the request it holds: written, or the request handed to the router.
    private func finish(_ answer: LaneAnswer, context: ChannelHandlerContext) {
        guard !removed, case .answering(let head, let body, let trailers) = state else { return }
        switch answer {
        case .response(let response, let body):
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            if body.readableBytes > 0 { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            if let event = quiesceHeld {
                quiesceHeld = nil
                context.fireUserInboundEventTriggered(event)
            }
            becomeIdle(context)
        case .router:
            state = .routing(requestEnded: true, responseEnded: false)
            handToRouter(head, body, context: context)
            context.fireChannelRead(wrapInboundOut(.end(trailers)))
            context.fireChannelReadComplete()
            if let event = quiesceHeld {
                quiesceHeld = nil
                context.fireUserInboundEventTriggered(event)
            }
        }
    }

    /// Hands a request the lane held to the router: its head and the body read so far.
    private func handToRouter(_ head: HTTPRequest, _ body: ByteBuffer, context: ChannelHandlerContext) {
        context.fireChannelRead(wrapInboundOut(.head(head)))
        if body.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(.body(body))) }
    }

    /// The request and its answer are done: the waiting parts are handled in order, then reading goes on.
    private func becomeIdle(_ context: ChannelHandlerContext) {
        state = .idle
        guard !waiting.isEmpty else { return resumeReading(context) }
        // Not from inside the write that ended the answer: the next request starts on its own turn.
        let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (lane, context) = loop.value
            lane.drain(context)
        }
    }

    private func drain(_ context: ChannelHandlerContext) {
        guard !removed else { return }
        var handled = false
        while !isBusy, let part = waiting.popFirst() {
            handle(part, context: context)
            handled = true
        }
        if handled { context.fireChannelReadComplete() }
        if waiting.isEmpty { resumeReading(context) }
    }

    private func resumeReading(_ context: ChannelHandlerContext) {
        guard readHeld else { return }
        readHeld = false
        context.read()
    }
}
