import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import TrackServer

/// Tokens travel in query strings (`?token=` for Overland, OsmAnd and the map page links); the
/// request log must never copy them, at any level.
@Suite("No secrets in logs")
struct LogSecrecyTests {
    @Test func queryTokensNeverReachTheLog() async throws {
        let logs = CapturedLogs()
        let server = try await TestServer(logger: logs.logger(level: .trace))
        let token = server.phoneToken
        let statuses = try await server.test { client in
            [
                try await client.executeRequest(
                    uri: "/ingest/overland?token=\(token)", method: .post,
                    headers: [.contentType: "application/json"], body: ByteBuffer(text: Fixtures.overland)),
                try await client.executeRequest(
                    uri: "/ingest/osmand?\(Fixtures.osmAndQuery)", method: .get, headers: [:], body: nil),
                try await client.executeRequest(
                    uri: "/devices/iphone-42?token=\(token)", method: .get, headers: [:], body: nil),
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/track?format=csv&token=\(token)", method: .get, headers: [:],
                    body: nil),
                try await client.executeRequest(uri: "/?token=\(token)", method: .get, headers: [:], body: nil),
            ].map(\.status.code)
        }
        #expect(statuses == [200, 200, 200, 200, 200])
        #expect(logs.text.contains("/ingest/overland"), "requests are still logged")
        #expect(!logs.text.contains(token), "a token was logged:\n\(logs.text)")
        #expect(!logs.text.contains(String(token.dropFirst(4))), "part of a token was logged")
    }
}
