import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Logging
import Testing
import TrackServer

/// `GET /s/{secret}` and the operator's `/v1/shares` (issue 25 item 3), on the in-process router
/// with a clock the test moves.
@Suite("Share links: pages and operator API")
struct SharePageTests {
    /// Ten samples of iphone-42, one a minute from `TestServer.start` − 80 min.
    static func server(logger: Logger? = nil, configure: (inout ServerConfiguration) -> Void = { _ in })
        async throws -> TestServer
    {
        let server = try await TestServer(logger: logger, configure: configure)
        _ = try await server.store.insert(
            (0..<10).map { StoreContract.sample("k\($0)", at: Int64($0) * 60, lat: 31.2 + Double($0) / 1000) },
            device: "iphone-42", at: server.clock.now)
        return server
    }

    static let base = StoreContract.sample("k0", at: 0).time

    /// Creates a link through the API; returns its path and id.
    static func create(_ client: any TestClientProtocol, body: String) async throws -> (path: String, id: Int) {
        let response = try await client.executeRequest(
            uri: "/v1/shares", method: .post, headers: .bearer(TestServer.operatorToken), body: ByteBuffer(text: body))
        #expect(response.status == .created, "\(response.text)")
        #expect(response.headers[.cacheControl] == "no-store", "the answer holds the secret")
        let json = try #require(response.json as? [String: Any])
        let path = try #require(json["path"] as? String)
        let share = try #require(json["share"] as? [String: Any])
        return (path, try #require(share["id"] as? Int))
    }

    static func get(_ client: any TestClientProtocol, _ uri: String) async throws -> TestResponse {
        try await client.executeRequest(uri: uri, method: .get, headers: [:], body: nil)
    }

    static func views(_ client: any TestClientProtocol, id: Int) async throws -> Int? {
        let response = try await client.executeRequest(
            uri: "/v1/shares?device=iphone-42", method: .get, headers: .bearer(TestServer.operatorToken), body: nil)
        let shares = (response.json as? [String: Any])?["shares"] as? [[String: Any]]
        return shares?.first { $0["id"] as? Int == id }?["views"] as? Int
    }

    @Test func aRangePageShowsOnlyItsRangeAndNeverItsSecret() async throws {
        let server = try await Self.server()
        let from = Self.base.milliseconds
        try await server.test { client in
            let link = try await Self.create(
                client, body: #"{"device":"iphone-42","kind":"range","from":\#(from),"to":\#(from + 300_000)}"#)
            let secret = String(link.path.dropFirst(3))
            #expect(ShareSecret.isWellFormed(secret))
            let page = try await Self.get(client, link.path)
            #expect(page.status == .ok)
            #expect(page.text.contains("5 points"), "the 5 samples of the range, not the 10 of the day")
            #expect(page.text.contains(#""live":false"#), "a range is drawn as a track")
            #expect(page.text.contains("31.204") && !page.text.contains("31.205"), "no point after the range")
            #expect(!page.text.contains(secret) && !page.text.contains(String(secret.dropFirst(4).prefix(16))))
            #expect(!page.text.contains("token"), "no token, no link carrying one")
            #expect(!page.text.contains("id=\"stale\""), "a finished range is not stale")
            #expect(page.headers[try #require(HTTPField.Name("Referrer-Policy"))] == "no-referrer")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(try await Self.views(client, id: link.id) == 1)
            _ = try await Self.get(client, link.path)
            #expect(try await Self.views(client, id: link.id) == 2, "each page served counts")
        }
    }

    @Test func aLivePageShowsTheNewestPointAndHowOldItIs() async throws {
        let server = try await Self.server()
        try await server.test { client in
            let link = try await Self.create(client, body: #"{"device":"iphone-42","kind":"live","expires_in":86400}"#)
            var page = try await Self.get(client, link.path)
            // Drawn as a marker with its time and accuracy (issue 37 item 4), not as a one-point track.
            #expect(page.text.contains(#""live":true"#) && page.text.contains("position at "))
            #expect(!page.text.contains("1 points"))
            #expect(page.text.contains("31.209"), "the newest sample")
            // The newest sample was taken 71 minutes before the clock's start.
            #expect(page.text.contains("last position 71 min ago"), "\(page.text)")
            server.clock.advance(by: .seconds(3 * 3600))
            page = try await Self.get(client, link.path)
            #expect(page.text.contains("last position 4 h ago"))
        }
        let fresh = try await Self.server { $0.shareStaleAfter = .seconds(5 * 3600) }
        try await fresh.test { client in
            let link = try await Self.create(client, body: #"{"device":"iphone-42","kind":"live"}"#)
            #expect(try await !Self.get(client, link.path).text.contains("id=\"stale\""), "recent enough: no note")
        }
    }

    @Test func revokedExpiredUnknownAndMalformedLinksServeNothing() async throws {
        let server = try await Self.server()
        try await server.test { client in
            let revoked = try await Self.create(client, body: #"{"device":"iphone-42","kind":"live"}"#)
            let expiring = try await Self.create(
                client, body: #"{"device":"iphone-42","kind":"live","expires_in":3600}"#)
            let answer = try await client.executeRequest(
                uri: "/v1/shares/\(revoked.id)", method: .delete, headers: .bearer(TestServer.operatorToken), body: nil)
            #expect(answer.status == .noContent)
            let gone = try await Self.get(client, revoked.path)
            #expect(gone.status == .gone && gone.text.contains("revoked") && !gone.text.contains("31.2"))
            #expect(try await Self.get(client, expiring.path).status == .ok)
            server.clock.advance(by: .seconds(3600))
            let expired = try await Self.get(client, expiring.path)
            #expect(expired.status == .gone && expired.text.contains("expired"))
            #expect(expired.headers[.cacheControl] == "no-store")
            let guessed = "shr_" + String(repeating: "0", count: 64)
            let hostile = [
                "/s/\(guessed)", "/s/shr_", "/s/" + String(repeating: "a", count: 5000),
                "/s/" + revoked.path.dropFirst(3).uppercased(), "/s/%00", "/s/shr_%2F..%2F..",
                "/s/\(expiring.path.dropFirst(3).dropLast())",
            ]
            for uri in hostile {
                let response = try await Self.get(client, uri)
                #expect(response.status == .notFound, "\(uri.prefix(40)): \(response.status)")
                #expect(response.text.contains("does not exist"))
            }
        }
    }

    @Test func pagesAreRateLimitedPerLinkWithRetryAfter() async throws {
        let server = try await Self.server {
            $0.shareLimits.perLink = 3
            $0.shareLimits.perAddress = 100
        }
        try await server.test { client in
            let link = try await Self.create(client, body: #"{"device":"iphone-42","kind":"live"}"#)
            for _ in 0..<3 { #expect(try await Self.get(client, link.path).status == .ok) }
            server.clock.advance(by: .seconds(15))
            let limited = try await Self.get(client, link.path)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "45")
            #expect(try await Self.views(client, id: link.id) == 3, "a refused request is not a view")
            server.clock.advance(by: .seconds(45))
            #expect(try await Self.get(client, link.path).status == .ok, "the next window")
        }
    }

    @Test func guessingSecretsRunsIntoTheAddressLimit() async throws {
        let server = try await Self.server { $0.shareLimits.perAddress = 5 }
        try await server.test { client in
            let link = try await Self.create(client, body: #"{"device":"iphone-42","kind":"live"}"#)
            for guess in 0..<5 {
                let uri = "/s/shr_" + String(repeating: "\(guess)", count: 64)
                #expect(try await Self.get(client, uri).status == .notFound)
            }
            let limited = try await Self.get(client, link.path)
            #expect(limited.status == .tooManyRequests, "even the right secret waits once the guesses used the limit")
            #expect(limited.headers[.retryAfter] == "60")
        }
    }

    /// Over a real socket the limit is kept per client address (the router tests have none).
    @Test func overASocketTheLimitIsPerClientAddress() async throws {
        let server = try await Self.server { $0.shareLimits.perAddress = 4 }
        let statuses = try await server.liveApp.testLive { client in
            var statuses: [UInt] = []
            for guess in 0..<5 {
                let uri = "/s/shr_" + String(repeating: "\(guess)", count: 64)
                statuses.append(UInt(try await Self.get(client, uri).status.code))
            }
            return statuses
        }
        #expect(statuses == [404, 404, 404, 404, 429])
        let limiter = server.environment.shareLimiter
        #expect(limiter.take("addr:127.0.0.1", limit: 4, at: server.clock.now) != nil, "the window is 127.0.0.1's")
        #expect(limiter.take("addr:unknown", limit: 4, at: server.clock.now) == nil)
    }

    @Test func theSecretNeverReachesTheLog() async throws {
        let logs = CapturedLogs()
        let server = try await Self.server(logger: logs.logger(level: .trace))
        let secret = try await server.test { client in
            let link = try await Self.create(client, body: #"{"device":"iphone-42","kind":"live"}"#)
            #expect(try await Self.get(client, link.path).status == .ok)
            #expect(try await Self.get(client, link.path + "/extra").status == .notFound)
            return String(link.path.dropFirst(3))
        }
        #expect(logs.text.contains("/s/…"), "share requests are logged, redacted:\n\(logs.text)")
        #expect(logs.text.contains("share viewed"))
        #expect(!logs.text.contains(secret) && !logs.text.contains(String(secret.dropFirst(4).prefix(12))))
        #expect(ShareSecret.redacting(path: "/s/\(secret)/x") == "/s/…/x")
        #expect(ShareSecret.redacting(path: "/devices/a") == "/devices/a")
    }

    @Test(arguments: [
        (#"{"device":"iphone-42","kind":"live","expires_in":-5}"#, 400),
        (#"{"device":"iphone-42","kind":"live","expires_in":9223372036854775807}"#, 400),
        (#"{"device":"iphone-42","kind":"live","expires_in":59}"#, 400),
        (#"{"device":"iphone-42","kind":"live","expires_in":1e300}"#, 400),
        (#"{"device":"iphone-42","kind":"range","from":10,"to":5}"#, 400),
        (#"{"device":"iphone-42","kind":"range","from":0,"to":99999999999999}"#, 400),
        (#"{"device":"iphone-42","kind":"range","from":-9223372036854775808,"to":0}"#, 400),
        (#"{"device":"iphone-42","kind":"range","from":5}"#, 400),
        (#"{"device":"iphone-42","kind":"live","from":5,"to":9}"#, 400),
        (#"{"device":"iphone-42","kind":"everything"}"#, 400),
        (#"{"device":"iphone-42"}"#, 400),
        (#"not json"#, 400),
        (
            #"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["#,
            400
        ),
        (#"{"device":"nobody","kind":"live"}"#, 404),
    ])
    func aBadShareRequestSaysWhatIsWrongAndStoresNothing(body: String, status: Int) async throws {
        let server = try await Self.server()
        try await server.test { client in
            let response = try await client.executeRequest(
                uri: "/v1/shares", method: .post, headers: .bearer(TestServer.operatorToken),
                body: ByteBuffer(text: body))
            #expect(Int(response.status.code) == status, "\(response.text)")
            #expect(((response.json as? [String: Any])?["error"] as? String)?.isEmpty == false)
        }
        #expect(try await server.store.shares(device: nil).isEmpty)
    }

    @Test func theOpenAPIDocumentListsTheRoutes() async throws {
        let spec = try await TestServer().test { client in try await Self.get(client, "/openapi.yaml").text }
        for path in ["/s/{secret}", "/v1/shares", "/v1/shares/{id}", "/v1/devices/{id}"] {
            #expect(spec.contains("  \(path):"), "openapi.yaml lacks \(path)")
        }
        #expect(spec.contains("ShareLink:"))
    }

    @Test func onlyAnOperatorManagesLinks() async throws {
        let server = try await Self.server()
        try await server.test { client in
            let body = ByteBuffer(text: #"{"device":"iphone-42","kind":"live"}"#)
            let asDevice = try await client.executeRequest(
                uri: "/v1/shares", method: .post, headers: .bearer(TestServer.phoneToken), body: body)
            #expect(asDevice.status == .forbidden)
            let anonymous = try await client.executeRequest(
                uri: "/v1/shares", method: .post, headers: [.contentType: "application/json"], body: body)
            #expect(anonymous.status == .unauthorized)
            let list = try await client.executeRequest(
                uri: "/v1/shares", method: .get, headers: .bearer(TestServer.phoneToken), body: nil)
            #expect(list.status == .forbidden)
            for (id, status) in [("abc", HTTPResponse.Status.badRequest), ("99", .notFound), ("-1", .notFound)] {
                let revoke = try await client.executeRequest(
                    uri: "/v1/shares/\(id)", method: .delete, headers: .bearer(TestServer.operatorToken), body: nil)
                #expect(revoke.status == status, "\(id)")
            }
        }
    }
}
