import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// How long a client may take and how many may be connected at once (issue 9, item 7).
///
/// In the way of nginx's `client_header_timeout`, `client_body_timeout`, `keepalive_timeout` and
/// `lingering_close`: a first request head must arrive in time (a silent or slowloris socket is
/// closed), a request must finish arriving in time (a body dripped a byte at a time is cut), a
/// kept-alive connection that sends nothing between requests is closed, a body the server answered
/// without reading is drained only up to a bound, and above the connection limit a client gets a
/// clear 503 instead of a server out of file descriptors. The idle timeout is this guard's, not
/// Hummingbird's: Hummingbird's sees only the requests its router answers, not those of the
/// single-point lane (``SinglePointLane``), and would close a busy lane connection as idle.
public struct ConnectionLimits: Sendable, Equatable {
    /// From accepting a connection to the end of its first request head.
    public var headerTimeout: Duration = .seconds(15)
    /// From a request head to the end of its body.
    public var requestTimeout: Duration = .seconds(120)
    /// Nothing received on a kept-alive connection between requests.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections open at once; the next one is answered 503 and closed.
    public var maxConnections: Int = 16_384
    /// Body bytes still read after the answer went out (a 413, a 401 before the body was read),
    /// so a client that writes its whole body before reading sees the answer; beyond it the
    /// connection is closed (and that client sees a reset). 128 MiB: an upload of 100 MB still
    /// sees its 413 (issue 23), and reading and dropping costs no memory, only the bytes' transfer,
    /// which the request timeout bounds.
    public var drainBytes: Int = 128 << 20

    public init() {}
}

/// Connection counts for `/metrics`. Lock-guarded: the channel handlers of every event loop share it.
public final class ConnectionCounters: @unchecked Sendable {
    public struct Snapshot: Sendable, Equatable {
        public var open = 0
        public var peak = 0
        public var refused = 0
        public var headerTimeouts = 0
        public var requestTimeouts = 0
        public var drainCuts = 0
        public var idleTimeouts = 0
    }

    private let lock = NSLock()
    private var state = Snapshot()
    /// Most connections open since memory was last handed back.
    private var peakSinceTrim = 0
    /// A burst at least this large, once over, hands freed memory back to the system.
    static let burstWorthTrimming = 256

    public init() {}

    public var snapshot: Snapshot { lock.withLock { state } }

    /// Counts a new connection in unless `limit` are open.
    func admit(limit: Int) -> Bool {
        lock.withLock {
            guard state.open < limit else {
                state.refused += 1
                return false
            }
            state.open += 1
            state.peak = max(state.peak, state.open)
            peakSinceTrim = max(peakSinceTrim, state.open)
            return true
        }
    }

    func release() {
        let burstOver = lock.withLock {
            state.open -= 1
            guard state.open == 0, peakSinceTrim >= Self.burstWorthTrimming else { return false }
            peakSinceTrim = 0
            return true
        }
        // glibc keeps freed heap in its arenas: after 10,000 idle connections closed the server
        // would keep their memory resident for good. Once the last connection of a large burst is
        // gone, hand it back (a few milliseconds, once per burst).
        if burstOver { Heap.trim() }
    }

    func record(_ path: any WritableKeyPath<Snapshot, Int> & Sendable) { lock.withLock { state[keyPath: path] += 1 } }
}

/// The channel handler behind ``ConnectionLimits``: after the HTTP/1 codec, before Hummingbird.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private let counters: ConnectionCounters
    private var activated = false
    private var admitted = false
    private var refusing = false
    /// The one timer of the connection, and when it fires. It is not moved at every request: when
    /// it fires it closes the connection if the current ``deadline`` has passed, else sleeps again
    /// until it (issue 23 item 5: a timer scheduled and cancelled twice per request cost each
    /// single point two allocations and two heap updates on the event loop).
    private var timer: Scheduled<Void>?
    private var timerAt: NIODeadline?
    /// The timeout being watched, if any: when it expires and which counter records it.
    private var deadline: (at: NIODeadline, counting: any WritableKeyPath<ConnectionCounters.Snapshot, Int> & Sendable)?
    /// The request being read has sent its end.
    private var requestEnded = true
    /// The answer to it has been written in full.
    private var responseEnded = false
    /// The request or its answer says `Connection: close`.
    private var closeAfterResponse = false
    private var requestSaysClose = false
    private var drained = 0

    /// The answer is out, the connection closes after this request, and its body is still
    /// arriving: nothing above this handler reads it any more (Hummingbird stops reading a
    /// `Connection: close` request once it answered), so this handler reads it and drops it. A
    /// client that writes its whole body before reading then sees the answer, not a stalled
    /// socket (issue 23, item 3).
    private var discarding: Bool { responseEnded && !requestEnded && closeAfterResponse }

    init(limits: ConnectionLimits, counters: ConnectionCounters) {
        self.limits = limits
        self.counters = counters
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { activate(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        activate(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refusing { return }
        switch unwrapInboundIn(data) {
        case .head(let request):
            requestEnded = false
            responseEnded = false
            requestSaysClose = request.headerFields[.connection]?.lowercased().contains("close") ?? false
            drained = 0
            arm(context, after: limits.requestTimeout, counting: \.requestTimeouts)
            if Self.expectsContinue(request) {
                // RFC 9110 §10.1.1: a client that asks waits for this (curl one second) before its
                // body. Every route reads or drains the body, so it is answered at once; a request
                // the route refuses gets its final answer next, and the guard drains the body.
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        case .body(let buffer):
            if responseEnded {
                drained += buffer.readableBytes
                if drained > limits.drainBytes {
                    counters.record(\.drainCuts)
                    context.close(promise: nil)
                    return
                }
                if closeAfterResponse { return }
            }
        case .end:
            requestEnded = true
            disarm()
            if closeAfterResponse && responseEnded {
                context.close(promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Above, the application asks for no more of a body it answered: keep reading it here.
        if discarding { context.read() }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            closeAfterResponse = requestSaysClose || response.headerFields[.connection]?.lowercased() == "close"
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            responseEnded = true
            guard closeAfterResponse && requestEnded else {
                // The connection stays open: between this answer and the next head, it is idle.
                if requestEnded { arm(context, after: limits.idleTimeout, counting: \.idleTimeouts) }
                context.write(data, promise: promise)
                if discarding {
                    context.flush()
                    context.read()
                }
                return
            }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// `Expect: 100-continue` (case-insensitive, the only expectation HTTP defines).
    static func expectsContinue(_ request: HTTPRequest) -> Bool {
        request.headerFields[.expect].map { $0.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue" }
            ?? false
    }

    private func activate(_ context: ChannelHandlerContext) {
        guard !activated else { return }
        activated = true
        guard counters.admit(limit: limits.maxConnections) else {
            refusing = true
            refuse(context)
            return
        }
        admitted = true
        arm(context, after: limits.headerTimeout, counting: \.headerTimeouts)
    }

    private func release() {
        disarm()
        stopTimer()
        if admitted {
            admitted = false
            counters.release()
        }
    }

    /// Above the limit: a complete 503 at once, then close, so the socket is freed within one round trip.
    private func refuse(_ context: ChannelHandlerContext) {
        let text =
            "503 the server has its maximum of \(limits.maxConnections) connections open; retry in a few seconds\n"
        let body = context.channel.allocator.buffer(string: text)
        let head = HTTPResponse(
            status: .serviceUnavailable,
            headerFields: [
                .connection: "close", .retryAfter: "5", .contentType: "text/plain; charset=utf-8",
                .contentLength: "\(body.readableBytes)",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func arm(
        _ context: ChannelHandlerContext, after timeout: Duration,
        counting path: any WritableKeyPath<ConnectionCounters.Snapshot, Int> & Sendable
    ) {
        let at = context.eventLoop.now + TimeAmount(timeout)
        deadline = (at, path)
        // A timer already due no later wakes in time, finds this deadline and sleeps on till it.
        if let timerAt, timerAt <= at { return }
        stopTimer()
        startTimer(context, at: at)
    }

    private func startTimer(_ context: ChannelHandlerContext, at: NIODeadline) {
        timerAt = at
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: at) {
            let (handler, context) = bound.value
            handler.timerFired(context)
        }
    }

    private func timerFired(_ context: ChannelHandlerContext) {
        timer = nil
        timerAt = nil
        guard let deadline else { return }
        if deadline.at <= context.eventLoop.now {
            self.deadline = nil
            counters.record(deadline.counting)
            context.channel.close(promise: nil)
        } else {
            startTimer(context, at: deadline.at)
        }
    }

    /// No timeout is watched (the timer, if any, finds none and stops).
    private func disarm() {
        deadline = nil
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
        timerAt = nil
    }
}
