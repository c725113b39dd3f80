import BackgroundCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Testing
import TrackServer

/// Operator tokens can be revoked (`bgtrack operator revoke NAME`) and listed.
@Suite struct OperatorRevocationTests {
    @Test func aRevokedOperatorTokenIsRefusedAtOnce() async throws {
        let server = try await TestServer()
        func index() async throws -> HTTPResponse.Status {
            try await server.test { client in
                try await client.executeRequest(
                    uri: "/?token=\(server.operatorToken)", method: .get, headers: [:], body: nil)
            }.status
        }
        #expect(try await index() == .ok)
        #expect(try await server.store.revokeOperator(named: "ops", at: server.clock.now))
        #expect(try await index() == .unauthorized)
        #expect(try await !server.store.revokeOperator(named: "ops", at: server.clock.now), "already revoked")
        #expect(try await !server.store.revokeOperator(named: "nobody", at: server.clock.now))
        let listed = try await server.store.operators()
        #expect(listed.map(\.name) == ["ops"])
        #expect(listed.first?.revokedAt == server.clock.now)
        #expect(
            try await server.store.owner(ofTokenHash: Tokens.hash(server.operatorToken), at: server.clock.now) == nil)
    }
}
