import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoadGenerator
import LocationLog
import LocationLogTesting
import Logging
import NIOCore
import Testing

@testable import TrackServer

/// The single-point lane (issue 23 item 5): what it takes, what it leaves to the router, that its
/// answer is the router's, and, on a real socket, that answers keep request order whichever of the
/// two answers them.
@Suite("Single-point lane")
struct SinglePointLaneTests {
    static let security = SecurityHeadersMiddleware<TrackRequestContext>(tileURL: nil)

    static func ownTracksHead(token: String = TestServer.phoneToken) -> HTTPRequest {
        var head = HTTPRequest(method: .post, scheme: nil, authority: "bgtrack", path: "/ingest/owntracks")
        head.headerFields = .basic(user: "ana", password: token)
        return head
    }

    static func osmAndHead(_ query: String = Fixtures.osmAndQuery) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: nil, authority: "bgtrack", path: "/ingest/osmand?\(query)")
    }

    /// Offers a request to the lane; `nil` when it did not take it, else its answer.
    static func lane(
        _ server: TestServer, _ route: LaneRoute, _ head: HTTPRequest, body: String = "",
        tokenHashes: LaneTokenHashes? = nil, peer: String? = nil
    ) async -> LaneAnswer? {
        let (answers, answered) = AsyncStream.makeStream(of: LaneAnswer.self)
        let taken = IngestController(server.environment).laneIngest(
            route, head: head, body: ByteBuffer(string: body), security: security, tokenHashes: tokenHashes,
            peer: peer
        ) { answer in
            answered.yield(answer)
            answered.finish()
        }
        guard taken else { return nil }
        var iterator = answers.makeAsyncIterator()
        return await iterator.next()
    }

    /// One OwnTracks point through the router: the token is then known to the lane.
    static func viaRouter(_ server: TestServer, _ body: String = GroupCommitTests.ownTracks(0)) async throws
        -> TestResponse
    {
        try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/owntracks", method: .post, headers: .basic(user: "ana", password: server.phoneToken),
                body: ByteBuffer(string: body))
        }
    }

    @Test func onlyPlainSinglePointRequestsAreOffered() {
        #expect(LaneRoute(Self.ownTracksHead()) == .ownTracks)
        #expect(LaneRoute(Self.osmAndHead()) == .osmAnd)
        var post = Self.osmAndHead()
        post.method = .post
        #expect(LaneRoute(post) == .osmAnd)
        for (field, value) in [
            (HTTPField.Name.connection, "close"), (.contentEncoding, "gzip"), (.expect, "100-continue"),
        ] {
            var head = Self.ownTracksHead()
            head.headerFields[field] = value
            #expect(LaneRoute(head) == nil, "\(field)")
        }
        for path in ["/ingest/owntracks/", "/ingest/owntracksx", "/v1/batches", "/ingest/overland", "/healthz"] {
            var head = Self.ownTracksHead()
            head.path = path
            #expect(LaneRoute(head) == nil, "\(path)")
        }
        var get = Self.ownTracksHead()
        get.method = .get
        #expect(LaneRoute(get) == nil)
        // A field the lane reads, sent twice: the router combines the values by its own rules.
        var twice = Self.ownTracksHead()
        twice.headerFields.append(HTTPField(name: .authorization, value: "Basic eDp5"))
        #expect(LaneRoute(twice) == nil)
        var twoTypes = post
        twoTypes.headerFields.append(HTTPField(name: .contentType, value: "application/json"))
        #expect(LaneRoute(twoTypes) == .osmAnd)
        twoTypes.headerFields.append(HTTPField(name: .contentType, value: "text/plain"))
        #expect(LaneRoute(twoTypes) == nil)
    }

    @Test func theLaneReadsItsFieldsWhateverTheirCase() throws {
        let authorization = try #require(HTTPField.Name("AUTHORIZATION"))
        let contentType = try #require(HTTPField.Name("Content-type"))
        let connection = try #require(HTTPField.Name("CONNECTION"))
        var fields = HTTPFields([
            HTTPField(name: authorization, value: "Basic YW5hOnRva2Vu"),
            HTTPField(name: contentType, value: "application/x-www-form-urlencoded"),
            HTTPField(name: .userAgent, value: "Traccar"),
        ])
        let read = LaneFields(fields)
        #expect(read.isPlain)
        #expect(read.authorization == "Basic YW5hOnRva2Vu")
        #expect(read.contentType == "application/x-www-form-urlencoded")
        #expect(Authenticator.basic(authorization: read.authorization)?.password == "token")
        fields.append(HTTPField(name: connection, value: "keep-alive"))
        #expect(!LaneFields(fields).isPlain)
        #expect(LaneFields(HTTPFields()) == LaneFields(HTTPFields([HTTPField(name: .userAgent, value: "wrk")])))
    }

    @Test func aTokenTheRouterHasNotCheckedGoesToTheRouter() async throws {
        let server = try await TestServer()
        #expect(await Self.lane(server, .ownTracks, Self.ownTracksHead(), body: GroupCommitTests.ownTracks(1)) == nil)
        #expect(await Self.lane(server, .osmAnd, Self.osmAndHead()) == nil)
        #expect(try await server.sampleCount() == 0)
    }

    @Test func theLanesAnswerIsTheRoutersAndItsPointIsStored() async throws {
        let server = try await TestServer()
        let routed = try await Self.viaRouter(server)
        let answer = await Self.lane(server, .ownTracks, Self.ownTracksHead(), body: GroupCommitTests.ownTracks(1))
        guard case .response(let head, let body) = answer else {
            Issue.record("the lane did not answer: \(String(describing: answer))")
            return
        }
        #expect(head.status == routed.status)
        #expect(String(buffer: body) == String(buffer: routed.body))
        var laneFields = head.headerFields
        for name in [HTTPField.Name.date, .server, .contentLength] {
            #expect(laneFields[name] != nil, "\(name)")
            laneFields[name] = nil
        }
        var routerFields = routed.headers
        routerFields[.contentLength] = nil
        #expect(
            Dictionary(uniqueKeysWithValues: laneFields.map { ($0.name.canonicalName, $0.value) })
                == Dictionary(uniqueKeysWithValues: routerFields.map { ($0.name.canonicalName, $0.value) }))
        #expect(try await server.sampleCount() == 2)
        let stored = try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start)
        #expect(stored.map(\.key).contains(GroupCommitTests.key(1)))
    }

    @Test func anOsmAndPointWithAKnownTokenIsAnsweredWithNoStoreHeaders() async throws {
        let server = try await TestServer()
        _ = try await Self.viaRouter(server)
        let answer = await Self.lane(server, .osmAnd, Self.osmAndHead())
        guard case .response(let head, let body) = answer else {
            Issue.record("the lane did not answer: \(String(describing: answer))")
            return
        }
        #expect(head.status == .ok && body.readableBytes == 0)
        // The token travels in the query: the answer must not be cached.
        #expect(head.headerFields[.cacheControl] == "no-store")
        #expect(head.headerFields[.contentSecurityPolicy] != nil)
        #expect(try await server.sampleCount() == 2)
        // Another device's name with this token is the router's to refuse.
        let other = Fixtures.osmAndQuery.replacingOccurrences(of: "id=iphone-42", with: "id=other")
        #expect(await Self.lane(server, .osmAnd, Self.osmAndHead(other)) == nil)
    }

    @Test func aCheckedTokenIsTrustedForOneSecondOnly() async throws {
        let server = try await TestServer()
        _ = try await Self.viaRouter(server)
        server.clock.advance(by: .milliseconds(999))
        #expect(await Self.lane(server, .ownTracks, Self.ownTracksHead(), body: GroupCommitTests.ownTracks(1)) != nil)
        server.clock.advance(by: .milliseconds(1))
        #expect(await Self.lane(server, .ownTracks, Self.ownTracksHead(), body: GroupCommitTests.ownTracks(2)) == nil)
        // A token revoked in the store (by `bgtrack device revoke`, another process) is then refused by the router.
        #expect(try await server.store.revokeDevice(named: "iphone-42", at: server.clock.now))
        #expect(try await Self.viaRouter(server, GroupCommitTests.ownTracks(3)).status == .unauthorized)
        #expect(await Self.lane(server, .ownTracks, Self.ownTracksHead(), body: GroupCommitTests.ownTracks(4)) == nil)
        #expect(try await server.sampleCount() == 2)
    }

    @Test func whatTheRouterJudgesIsLeftToIt() async throws {
        let server = try await TestServer()
        _ = try await Self.viaRouter(server)
        let bodies = [
            "{\"_type\":\"encrypted\",\"data\":\"AAAA\"}",
            "{\"_type\":\"transition\",\"event\":\"enter\",\"tst\":1732240000}",
            "{\"_type\":\"location\",\"lat\":91,\"lon\":2.35,\"tst\":1732240000}",
            "{\"_type\":\"location\",\"lat\":48.8",
            "",
            "[]",
        ]
        for body in bodies {
            #expect(await Self.lane(server, .ownTracks, Self.ownTracksHead(), body: body) == nil, "\(body)")
        }
        #expect(
            await Self.lane(
                server, .ownTracks, Self.ownTracksHead(token: "bgd_wrong"), body: GroupCommitTests.ownTracks(5)) == nil)
        #expect(
            await Self.lane(server, .osmAnd, Self.osmAndHead("id=iphone-42&token=bgd_phone-token&lat=100&lon=1")) == nil
        )
        #expect(try await server.sampleCount() == 1)
    }

    @Test func aLogoutIsHonouredAtOnce() async throws {
        let server = try await TestServer()
        _ = try await Self.viaRouter(server)
        server.environment.writerCache.forgetAll()
        #expect(await Self.lane(server, .ownTracks, Self.ownTracksHead(), body: GroupCommitTests.ownTracks(1)) == nil)
    }

    /// A connection keeps its last token's hash, not the verdict on it: another token on the same
    /// connection is hashed anew, and a logout is honoured at the next request.
    @Test func aConnectionsRememberedTokenHashStillHearsALogout() async throws {
        let server = try await TestServer()
        _ = try await Self.viaRouter(server)
        let memo = LaneTokenHashes()
        #expect(memo.hash(server.phoneToken) == Tokens.hash(server.phoneToken))
        #expect(memo.hash("bgd_other") == Tokens.hash("bgd_other"))
        #expect(memo.hash(server.phoneToken) == Tokens.hash(server.phoneToken))
        let ownTracks = { (point: Int, token: String) in
            await Self.lane(
                server, .ownTracks, Self.ownTracksHead(token: token), body: GroupCommitTests.ownTracks(point),
                tokenHashes: memo)
        }
        #expect(await ownTracks(1, server.phoneToken) != nil)
        #expect(await ownTracks(2, "bgd_not-a-device-token") == nil)
        #expect(await ownTracks(3, server.phoneToken) != nil)
        server.environment.writerCache.forgetAll()
        #expect(await ownTracks(4, server.phoneToken) == nil)
        #expect(try await server.sampleCount() == 3)
    }

    // MARK: - On a socket

    /// `buildApplication`'s server (guard, lane, router) on a free port around `body`.
    static func live<T: Sendable>(_ server: TestServer, _ body: @escaping @Sendable (Int) throws -> T) async throws -> T
    {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        var environment = server.environment
        environment.configuration.port = 0
        environment.configuration.host = "127.0.0.1"
        let app = buildApplication(environment) { listening.yield($0) }
        // The server on threads of its own, the blocking socket on another: neither waits for the
        // cooperative pool, however busy the other tests keep it.
        return try await onOwnThreads {
            try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await app.run()
                    return nil
                }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                let value = try await offThePool { Result { try body(port) } }
                group.cancelAll()
                return try value.get()
            }
        }
    }

    static func ownTracksRequest(_ point: Int, extra: String = "") -> String {
        let body = GroupCommitTests.ownTracks(point)
        let credentials = Data("ana:\(TestServer.phoneToken)".utf8).base64EncodedString()
        return "POST /ingest/owntracks HTTP/1.1\r\nHost: t\r\nAuthorization: Basic \(credentials)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\(extra)\r\n\(body)"
    }

    @Test func pipelinedRequestsAreAnsweredInOrderByLaneAndRouterAlike() async throws {
        let server = try await TestServer()
        let statuses = try await Self.live(server) { port in
            let connection = try LoadConnection(LoadTarget(address: "127.0.0.1", port: port), timeout: 10)
            // The first point goes to the router (its token is new), the others to the lane, with
            // a router-only request between them; all sent before any answer is read.
            let requests =
                Self.ownTracksRequest(10) + "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n" + Self.ownTracksRequest(11)
                + "GET /ingest/osmand?\(Fixtures.osmAndQuery) HTTP/1.1\r\nHost: t\r\n\r\n"
                + "GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n" + Self.ownTracksRequest(12)
            try connection.write(Array(requests.utf8))
            var answers: [(Int, String)] = []
            for _ in 0..<6 {
                let response = try connection.readResponse()
                answers.append((response.status, String(decoding: response.body, as: UTF8.self)))
            }
            // Then one that closes: answered, and the connection ends (a request after it gets no answer).
            let closing = try connection.roundTrip(
                Array(Self.ownTracksRequest(13, extra: "Connection: close\r\n").utf8))
            try? connection.write(Array(Self.ownTracksRequest(14).utf8))
            let after = Result { try connection.readResponse() }
            answers.append((closing.status, (try? after.get()) == nil ? "closed" : "open"))
            return answers
        }
        #expect(statuses.map { $0.0 } == [200, 200, 200, 200, 404, 200, 200])
        #expect(statuses[0].1 == "[]" && statuses[2].1 == "[]" && statuses[5].1 == "[]")
        #expect(statuses[1].1.contains("\"status\""))
        #expect(statuses[4].1.contains("no route"))
        #expect(statuses[6].1 == "closed")
        #expect(try await server.sampleCount() == 5)
        let accepted = await server.environment.metrics.value(
            "bgtrack_samples_total", ["protocol": "owntracks", "outcome": "accepted"])
        #expect(accepted == 4)
    }
}

extension SinglePointLaneTests {
    /// A client that writes a thousand requests before reading any answer, every tenth one
    /// unreadable (the router quarantines it and answers 200, as OwnTracks needs): every answer
    /// comes, in order, and nothing is lost or stored twice.
    @Test func aThousandPipelinedRequestsWithBadOnesAmongThemAreAllAnsweredInOrder() async throws {
        let server = try await TestServer()
        let credentials = Data("ana:\(TestServer.phoneToken)".utf8).base64EncodedString()
        @Sendable func request(_ index: Int) -> String {
            let body =
                index % 10 == 9
                ? "{\"_type\":\"location\",\"lat\":91,\"lon\":2.35,\"tst\":\(1_732_240_000 + index)}"
                : GroupCommitTests.ownTracks(100 + index)
            return "POST /ingest/owntracks HTTP/1.1\r\nHost: t\r\nAuthorization: Basic \(credentials)\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        }
        let answers = try await Self.live(server) { port in
            let connection = try LoadConnection(LoadTarget(address: "127.0.0.1", port: port), timeout: 30)
            try connection.write(Array((0..<1000).map(request).joined().utf8))
            return try (0..<1000).map { _ in try connection.readResponse() }
        }
        #expect(answers.count == 1000)
        #expect(answers.allSatisfy { $0.status == 200 && $0.body == Array("[]".utf8) })
        #expect(try await server.sampleCount() == 900)
        let rejected = try await server.store.rejectedPoints(device: "iphone-42", limit: 1000)
        #expect(rejected.count == 100)
    }
}

extension SinglePointLaneTests {
    /// A body in chunks with a trailer: the lane reads it whole, for a known token (stored) and an
    /// unknown one (the router's 401), on one connection.
    @Test func aChunkedBodyWithATrailerIsReadWhole() async throws {
        let server = try await TestServer()
        let statuses = try await Self.live(server) { port in
            let connection = try LoadConnection(LoadTarget(address: "127.0.0.1", port: port), timeout: 10)
            func chunked(_ point: Int, token: String) -> [UInt8] {
                let body = Array(GroupCommitTests.ownTracks(point).utf8)
                let credentials = Data("ana:\(token)".utf8).base64EncodedString()
                var text =
                    "POST /ingest/owntracks HTTP/1.1\r\nHost: t\r\nAuthorization: Basic \(credentials)\r\n"
                    + "Transfer-Encoding: chunked\r\nTrailer: X-Note\r\n\r\n"
                for chunk in stride(from: 0, to: body.count, by: 7) {
                    let part = body[chunk..<min(chunk + 7, body.count)]
                    text += String(part.count, radix: 16) + "\r\n" + String(decoding: part, as: UTF8.self) + "\r\n"
                }
                return Array((text + "0\r\nX-Note: last\r\n\r\n").utf8)
            }
            var statuses: [Int] = []
            for (point, token) in [(20, TestServer.phoneToken), (21, TestServer.phoneToken), (22, "bgd_nobody")] {
                statuses.append(try connection.roundTrip(chunked(point, token: token)).status)
            }
            return statuses
        }
        #expect(statuses == [200, 200, 401])
        #expect(try await server.sampleCount() == 2)
    }
}

extension LaneAnswer: Equatable {
    static func == (lhs: LaneAnswer, rhs: LaneAnswer) -> Bool {
        switch (lhs, rhs) {
        case (.router, .router): true
        case (.response(let a, let x), .response(let b, let y)): a == b && x == y
        default: false
        }
    }
}
