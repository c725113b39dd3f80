import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import TrackServer

/// The connection guard on NIO's embedded channel, whose event loop runs on virtual time: every
/// timeout here is crossed by `advanceTime`, never by waiting.
@Suite("Connection limits and timeouts (issue 9, items 7-8)")
struct ConnectionGuardTests {
    static func limits(_ change: (inout ConnectionLimits) -> Void = { _ in }) -> ConnectionLimits {
        var limits = ConnectionLimits()
        change(&limits)
        return limits
    }

    static func connect(
        _ limits: ConnectionLimits, _ counters: ConnectionCounters
    ) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: ConnectionGuard(limits: limits, counters: counters))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        return channel
    }

    static let head = HTTPRequestPart.head(
        HTTPRequest(method: .post, scheme: nil, authority: "bgtrack", path: "/v1/batches"))

    static func body(_ count: Int) -> HTTPRequestPart { .body(ByteBuffer(repeating: 0x61, count: count)) }

    @Test func aSilentConnectionIsClosedWhenTheHeaderTimeoutPasses() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits(), counters)
        #expect(counters.snapshot.open == 1)
        channel.embeddedEventLoop.advanceTime(by: .seconds(14))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
        #expect(counters.snapshot.headerTimeouts == 1)
        #expect(counters.snapshot.open == 0)
    }

    @Test func aHeadInTimeStopsTheHeaderClockAndARequestMustFinishInItsOwnTime() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits(), counters)
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        try channel.writeInbound(Self.head)
        // A body dripped a byte at a time: each byte is progress, but the request has 120 s in all.
        for _ in 0..<11 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(10))
            try channel.writeInbound(Self.body(1))
        }
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(11))
        #expect(!channel.isActive)
        #expect(counters.snapshot.requestTimeouts == 1)
        #expect(counters.snapshot.headerTimeouts == 0)
    }

    @Test func aRequestThatArrivesInTimeIsNeverCutByTheGuard() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits(), counters)
        try channel.writeInbound(Self.head)
        try channel.writeInbound(Self.body(500))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        // The parts reach the application unchanged.
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.head)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        // Kept alive: nothing for the idle timeout closes it, and that is counted as idle, not as a
        // slow request. The guard, not Hummingbird, keeps this time: it sees the single-point
        // lane's requests too.
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
        #expect(counters.snapshot.requestTimeouts == 0 && counters.snapshot.headerTimeouts == 0)
        #expect(counters.snapshot.idleTimeouts == 1)
    }

    @Test func aNewRequestBeforeTheIdleTimeoutGetsTheRequestTimeoutInstead() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits(), counters)
        for _ in 0..<3 {
            try channel.writeInbound(Self.head)
            try channel.writeInbound(HTTPRequestPart.end(nil))
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            channel.embeddedEventLoop.advanceTime(by: .seconds(50))
        }
        // Mid-request, the idle timeout no longer applies: the request has its 120 s.
        try channel.writeInbound(Self.head)
        channel.embeddedEventLoop.advanceTime(by: .seconds(100))
        #expect(channel.isActive)
        #expect(counters.snapshot.idleTimeouts == 0)
        channel.embeddedEventLoop.advanceTime(by: .seconds(21))
        #expect(!channel.isActive)
        #expect(counters.snapshot.requestTimeouts == 1)
    }

    /// The guard's one timer is not moved at each request: it wakes at the earliest deadline it
    /// was set for and sleeps on to the current one. A connection busy for an hour is never cut,
    /// and each timeout still counts from its own start, whichever timer was pending.
    @Test func aTimerThatIsNotMovedAtEachRequestStillKeepsEveryTimeout() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits(), counters)
        func exchange(taking seconds: Int64) throws {
            try channel.writeInbound(Self.head)
            channel.embeddedEventLoop.advanceTime(by: .seconds(seconds))
            try channel.writeInbound(HTTPRequestPart.end(nil))
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }
        for _ in 0..<72 {
            try exchange(taking: 1)
            channel.embeddedEventLoop.advanceTime(by: .seconds(49))
        }
        #expect(channel.isActive, "an hour of requests 50 s apart")
        // A slower request: the timer, due at the last idle deadline 11 s into it, now waits for
        // the request's 120 s; answered at 30 s, idle from then on, so closed 60 s after the
        // answer (the timer brought forward), not at the request's deadline 90 s after it.
        try exchange(taking: 30)
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
        #expect(counters.snapshot.idleTimeouts == 1)
        #expect(counters.snapshot.requestTimeouts == 0 && counters.snapshot.headerTimeouts == 0)
    }

    @Test func aboveTheLimitAClientGetsA503AndTheSocketIsFreed() throws {
        let counters = ConnectionCounters()
        let limits = Self.limits { $0.maxConnections = 2 }
        let first = try Self.connect(limits, counters)
        _ = try Self.connect(limits, counters)
        let third = try Self.connect(limits, counters)
        guard case .head(let response) = try third.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no response head on the refused connection")
            return
        }
        #expect(response.status == .serviceUnavailable)
        #expect(response.headerFields[.retryAfter] == "5")
        #expect(response.headerFields[.connection] == "close")
        guard case .body(let body) = try third.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no response body on the refused connection")
            return
        }
        #expect(String(buffer: body).contains("maximum of 2 connections"))
        #expect(!third.isActive)
        // What a refused client sends never reaches the application.
        #expect(counters.snapshot.refused == 1 && counters.snapshot.open == 2)
        // A connection that closes makes room.
        _ = try first.close().wait()
        #expect(counters.snapshot.open == 1)
        let fourth = try Self.connect(limits, counters)
        #expect(try fourth.readOutbound(as: HTTPResponsePart.self) == nil)
        #expect(fourth.isActive && counters.snapshot.open == 2 && counters.snapshot.peak == 2)
    }

    @Test func afterA413WithConnectionCloseTheRestOfTheBodyIsDrainedThenTheConnectionCloses() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits(), counters)
        try channel.writeInbound(Self.head)
        try channel.writeInbound(Self.body(1_000))
        try channel.writeOutbound(
            HTTPResponsePart.head(HTTPResponse(status: .contentTooLarge, headerFields: [.connection: "close"])))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        // The client, which writes its whole body before reading, keeps writing: still read.
        try channel.writeInbound(Self.body(100_000))
        #expect(channel.isActive)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        // Everything it sent was read, so closing now sends a FIN, not a reset: it sees the 413.
        #expect(!channel.isActive)
        #expect(counters.snapshot.drainCuts == 0)
    }

    /// Counts the reads asked of the socket, below the guard.
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Never
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// Above the guard, the application (Hummingbird's async channel) asks for nothing more once it
    /// has answered a `Connection: close` request: it swallows the channel's own reads.
    final class AnsweredApplication: ChannelDuplexHandler {
        typealias InboundIn = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        var parts: [HTTPRequestPart] = []
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { parts.append(unwrapInboundIn(data)) }
        func read(context: ChannelHandlerContext) {}
    }

    static func closingRequest(_ close: Bool) -> HTTPRequestPart {
        var request = HTTPRequest(method: .post, scheme: nil, authority: "bgtrack", path: "/v1/batches")
        if close { request.headerFields[.connection] = "close" }
        return .head(request)
    }

    /// Issue 23, item 3: with `Connection: close` Hummingbird reads nothing after its answer, so a
    /// client writing a large body blocked until the idle timeout and never saw its 413. The guard
    /// now reads the rest itself, drops it, and closes at its end, with either side saying close.
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func theBodyOfAnAnsweredClosingRequestIsReadAndDroppedHere(requestCloses: Bool, answerCloses: Bool) throws {
        let counters = ConnectionCounters()
        let reads = ReadCounter()
        let application = AnsweredApplication()
        let channel = EmbeddedChannel(handlers: [
            reads, ConnectionGuard(limits: Self.limits(), counters: counters), application,
        ])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        try channel.writeInbound(Self.closingRequest(requestCloses))
        try channel.writeInbound(Self.body(4 << 20))
        let answer = HTTPResponse(
            status: .contentTooLarge, headerFields: answerCloses ? [.connection: "close"] : [:])
        try channel.writeOutbound(HTTPResponsePart.head(answer))
        let before = reads.reads
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(reads.reads > before, "the guard asks for the rest of the body after answering")
        for _ in 0..<25 {
            let asked = reads.reads
            try channel.writeInbound(Self.body(1 << 20))
            channel.pipeline.fireChannelReadComplete()
            #expect(reads.reads > asked)
            #expect(channel.isActive)
        }
        // Only the parts before the answer reached the application.
        #expect(application.parts.count == 2)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(!channel.isActive)
        #expect(counters.snapshot.drainCuts == 0)
    }

    @Test func aKeptAliveConnectionsBodyStillGoesToTheApplicationWhichReadsIt() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits(), counters)
        try channel.writeInbound(Self.closingRequest(false))
        _ = try channel.readInbound(as: HTTPRequestPart.self)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .unauthorized)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        try channel.writeInbound(Self.body(100))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.body(100))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(channel.isActive)
    }

    @Test func drainingStopsAtTheBound() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits { $0.drainBytes = 64 << 10 }, counters)
        try channel.writeInbound(Self.head)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .unauthorized)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        try channel.writeInbound(Self.body(60 << 10))
        #expect(channel.isActive)
        try channel.writeInbound(Self.body(8 << 10))
        #expect(!channel.isActive)
        #expect(counters.snapshot.drainCuts == 1)
    }

    @Test func aCloseAnswerToAFullyReadRequestClosesOnceWritten() throws {
        let counters = ConnectionCounters()
        let channel = try Self.connect(Self.limits(), counters)
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        try channel.writeOutbound(
            HTTPResponsePart.head(HTTPResponse(status: .contentTooLarge, headerFields: [.connection: "close"])))
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(!channel.isActive)
    }
}
