import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import TrackServer

/// `serve --trusted-proxy` (issue 41 item 1): forwarding headers believed only from the proxies
/// named, and the client they name drives the share pages' per-address limit and the logs.
@Suite("Trusted proxies: the client behind a reverse proxy")
struct TrustedProxyTests {
    static let loopback = TrustedProxies(["127.0.0.1/32", "::1"].compactMap(AddressBlock.init))

    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    @Test func blocksParseIPv4AndIPv6AndRefuseAnythingElse() throws {
        let blocks = try TrustedProxies(parsing: ["10.0.0.0/8", "192.168.1.7", "fd00::/8", "::1/128"])
        #expect(blocks.contains("10.200.3.4") && !blocks.contains("11.0.0.1"))
        #expect(blocks.contains("192.168.1.7") && !blocks.contains("192.168.1.8"))
        #expect(blocks.contains("fd12:3456::1") && !blocks.contains("fe80::1"))
        #expect(blocks.contains("::1") && blocks.contains("::ffff:10.1.2.3"), "an IPv4-mapped peer is its IPv4 address")
        #expect(blocks.blocks.map(\.description) == ["10.0.0.0/8", "192.168.1.7/32", "fd00::/8", "::1/128"])
        for bad in ["10.0.0.0/33", "10.0.0", "localhost", "::1/129", "10.0.0.0/-1", "", "1.2.3.4/8/9", "10.0.0.0/ 8"] {
            #expect(throws: TrustedProxyError.self, "\(bad)") { try TrustedProxies(parsing: [bad]) }
        }
        let error = try #require(throws: TrustedProxyError.self) { try TrustedProxies(parsing: ["proxy.lan"]) }
        #expect(error.description.contains("proxy.lan") && error.description.contains("127.0.0.1/32"))
    }

    @Test func fromATrustedProxyTheForwardedClientIsBelieved() {
        let client = Self.loopback.client(
            peer: "127.0.0.1",
            headers: Self.fields([("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Proto", "https")]))
        #expect(client == ForwardedClient(address: "203.0.113.9", scheme: "https", proxy: "127.0.0.1"))
        let forwarded = Self.loopback.client(
            peer: "::1", headers: Self.fields([("Forwarded", "for=\"[2001:db8::7]:4711\";proto=https")]))
        #expect(forwarded == ForwardedClient(address: "2001:db8::7", scheme: "https", proxy: "::1"))
    }

    @Test func fromAnyOtherPeerForwardingHeadersAreIgnored() {
        let none = TrustedProxies()
        let headers = Self.fields([("X-Forwarded-For", "203.0.113.9"), ("Forwarded", "for=198.51.100.1")])
        #expect(none.client(peer: "127.0.0.1", headers: headers).address == "127.0.0.1")
        #expect(Self.loopback.client(peer: "198.51.100.50", headers: headers).address == "198.51.100.50")
        #expect(Self.loopback.client(peer: nil, headers: headers).address == nil)
    }

    @Test func theChainIsReadFromTheRightSoAClientCannotPushMadeUpAddressesPastTheProxy() {
        let twoProxies = TrustedProxies(["127.0.0.1/32", "10.0.0.0/8"].compactMap(AddressBlock.init))
        // The client claimed 1.2.3.4; the outer proxy 10.0.0.5 appended what it saw, 203.0.113.9.
        let chain = Self.fields([("X-Forwarded-For", "1.2.3.4, 203.0.113.9, 10.0.0.5")])
        #expect(twoProxies.client(peer: "127.0.0.1", headers: chain).address == "203.0.113.9")
        // Two header fields are one list.
        let split = Self.fields([("X-Forwarded-For", "1.2.3.4"), ("X-Forwarded-For", "203.0.113.9")])
        #expect(twoProxies.client(peer: "127.0.0.1", headers: split).address == "203.0.113.9")
        // Something that is not an address stops the walk: the last trusted hop is the client.
        let junk = Self.fields([("X-Forwarded-For", "203.0.113.9, unknown")])
        #expect(twoProxies.client(peer: "127.0.0.1", headers: junk).address == "127.0.0.1")
        // Forwarded wins over X-Forwarded-For.
        let both = Self.fields([("X-Forwarded-For", "1.2.3.4"), ("Forwarded", "for=203.0.113.9, for=10.0.0.5")])
        #expect(twoProxies.client(peer: "127.0.0.1", headers: both).address == "203.0.113.9")
        // A proto other than http or https is ignored.
        let proto = Self.fields([("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Proto", "gopher")])
        #expect(twoProxies.client(peer: "127.0.0.1", headers: proto).scheme == nil)
    }

    /// Over a real socket from 127.0.0.1 (the proxy), each forwarded client has its own share limit:
    /// the issue's run, where 30 bad requests made a valid link answer 429 for everyone.
    @Test func behindATrustedProxyTheShareLimitIsPerClient() async throws {
        let logs = CapturedLogs()
        let server = try await SharePageTests.server(logger: logs.logger(level: .info)) {
            $0.trustedProxies = Self.loopback
        }
        let statuses = try await server.liveApp.testLive { client in
            let link = try await SharePageTests.create(client, body: #"{"device":"iphone-42","kind":"live"}"#)
            var statuses: [UInt] = []
            func get(_ uri: String, as address: String) async throws -> UInt {
                UInt(
                    try await client.executeRequest(
                        uri: uri, method: .get, headers: Self.fields([("X-Forwarded-For", address)]), body: nil
                    ).status.code)
            }
            for guess in 0..<30 {
                statuses.append(
                    try await get("/s/shr_" + String(repeating: "\(guess % 10)", count: 64), as: "203.0.113.2"))
            }
            statuses.append(try await get(link.path, as: "203.0.113.2"))
            statuses.append(try await get(link.path, as: "203.0.113.3"))
            return statuses
        }
        #expect(statuses.prefix(30).allSatisfy { $0 == 404 })
        #expect(statuses.suffix(2) == [429, 200], "the limited client waits; another behind the same proxy does not")
        #expect(logs.text.contains("client=203.0.113.3") && logs.text.contains("proxy=127.0.0.1"))
        let believed = await server.environment.metrics.value("bgtrack_forwarded_requests_total", ["trusted": "yes"])
        let forwardedLines = logs.text.split(separator: "\n").filter { $0.contains("Request") && $0.contains("proxy=") }
        #expect(believed >= 32 && believed == forwardedLines.count, "\(believed) \(forwardedLines.count)")
    }

    /// The single-point lane (OwnTracks and OsmAnd points answered on the event loop, without the
    /// router) logs and counts its requests with the client as the router does: the forwarded
    /// client behind a trusted proxy, the socket's peer otherwise, a forged header ignored.
    @Test func theSinglePointLaneLogsTheClientAsTheRouterDoes() async throws {
        let logs = CapturedLogs()
        let server = try await TestServer(logger: logs.logger(level: .info)) { $0.trustedProxies = Self.loopback }
        _ = try await SinglePointLaneTests.viaRouter(server)
        var head = SinglePointLaneTests.ownTracksHead()
        head.headerFields[HTTPField.Name("X-Forwarded-For") ?? .accept] = "198.51.100.4, 203.0.113.9"
        for (index, peer) in ["127.0.0.1", "192.0.2.66"].enumerated() {
            let answer = await SinglePointLaneTests.lane(
                server, .ownTracks, head, body: GroupCommitTests.ownTracks(index + 1), peer: peer)
            guard case .response = answer else {
                Issue.record("the lane did not take the point from \(peer): \(String(describing: answer))")
                return
            }
        }
        let lines = logs.text.split(separator: "\n").filter {
            $0.contains("Request") && $0.contains("/ingest/owntracks")
        }
        #expect(lines.contains { $0.contains("client=203.0.113.9") && $0.contains("proxy=127.0.0.1") }, "\(lines)")
        #expect(lines.contains { $0.contains("client=192.0.2.66") && !$0.contains("proxy=") }, "\(lines)")
        #expect(await server.environment.metrics.value("bgtrack_forwarded_requests_total", ["trusted": "yes"]) >= 1)
        #expect(await server.environment.metrics.value("bgtrack_forwarded_requests_total", ["trusted": "no"]) >= 1)
    }

    /// Without `--trusted-proxy` a forged header changes nothing: the limit stays the socket's.
    @Test func withoutTrustTheForgedHeaderDoesNotEscapeTheLimit() async throws {
        let server = try await SharePageTests.server { $0.shareLimits.perAddress = 3 }
        let statuses = try await server.liveApp.testLive { client in
            var statuses: [UInt] = []
            for guess in 0..<4 {
                statuses.append(
                    UInt(
                        try await client.executeRequest(
                            uri: "/s/shr_" + String(repeating: "\(guess)", count: 64), method: .get,
                            headers: Self.fields([("X-Forwarded-For", "203.0.113.\(guess)")]), body: nil
                        ).status.code))
            }
            return statuses
        }
        #expect(statuses == [404, 404, 404, 429])
        #expect(await server.environment.metrics.value("bgtrack_forwarded_requests_total", ["trusted": "no"]) == 4)
    }
}
