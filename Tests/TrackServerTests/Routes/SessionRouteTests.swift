import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Testing
import TrackServer

@Suite("Sessions and heartbeat (docs/protocol.md §Sessions)")
struct SessionRouteTests {
    func login(_ server: TestServer, _ client: any TestClientProtocol) async throws -> String {
        let response = try await client.executeRequest(
            uri: "/v1/sessions", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(text: "{\"device\":\"iphone-42\",\"token\":\"\(server.phoneToken)\"}"))
        #expect(response.status == .created)
        return try #require((response.json as? [String: Any])?["token"] as? String)
    }

    @Test func heartbeatExtendsAndExpiryAnswers401() async throws {
        let server = try await TestServer { $0.sessionTTL = .seconds(3600) }
        try await server.test { client in
            let session = try await login(server, client)
            server.clock.advance(by: .seconds(3000))
            let beat = try await client.executeRequest(
                uri: "/v1/sessions/heartbeat", method: .post, headers: .bearer(session), body: nil)
            #expect(beat.status == .ok)
            let body = try #require(beat.json as? [String: Any])
            #expect(body["status"] as? String == "active")
            #expect((body["expires_at"] as? Int).map(Int64.init) == (TestServer.start + .seconds(6600)).milliseconds)
            server.clock.advance(by: .seconds(3000))  // still inside the extended TTL
            let second = try await client.executeRequest(
                uri: "/v1/sessions/heartbeat", method: .post, headers: .bearer(session), body: nil)
            #expect(second.status == .ok)
            server.clock.advance(by: .seconds(3601))
            let expired = try await client.executeRequest(
                uri: "/v1/sessions/heartbeat", method: .post, headers: .bearer(session), body: nil)
            #expect(expired.status == .unauthorized)
            let upload = try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(session),
                body: ByteBuffer(text: Fixtures.nativeBatch))
            #expect(upload.status == .unauthorized)
        }
    }

    @Test func sessionTokenUploadsAndLogoutRevokes() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let session = try await login(server, client)
            let upload = try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(session),
                body: ByteBuffer(text: Fixtures.nativeBatch))
            #expect(upload.status == .ok)
            let logout = try await client.executeRequest(
                uri: "/v1/sessions", method: .delete, headers: .bearer(session), body: nil)
            #expect(logout.status == .noContent)
            let beat = try await client.executeRequest(
                uri: "/v1/sessions/heartbeat", method: .post, headers: .bearer(session), body: nil)
            #expect(beat.status == .unauthorized)
        }
    }

    @Test func revokingTheDeviceKillsItsSessions() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let session = try await login(server, client)
            #expect(try await server.store.revokeDevice(named: "iphone-42", at: server.clock.now))
            let beat = try await client.executeRequest(
                uri: "/v1/sessions/heartbeat", method: .post, headers: .bearer(session), body: nil)
            #expect(beat.status == .unauthorized)
        }
    }

    @Test func wrongCredentialsAre401() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/sessions", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(text: "{\"device\":\"iphone-42\",\"token\":\"\(server.otherToken)\"}"))
        }
        #expect(response.status == .unauthorized)
    }

    @Test func offlineAfterTenQuietMinutesAndBackOnHeartbeat() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let session = try await login(server, client)
            server.clock.advance(by: .seconds(601))
            let devices = try await client.executeRequest(
                uri: "/v1/devices", method: .get, headers: .bearer(server.operatorToken), body: nil)
            let list = try #require(devices.json as? [[String: Any]])
            #expect(list.first { $0["name"] as? String == "iphone-42" }?["offline"] as? Bool == true)
            _ = try await client.executeRequest(
                uri: "/v1/sessions/heartbeat", method: .post, headers: .bearer(session), body: nil)
            let again = try await client.executeRequest(
                uri: "/v1/devices", method: .get, headers: .bearer(server.operatorToken), body: nil)
            let updated = try #require(again.json as? [[String: Any]])
            #expect(updated.first { $0["name"] as? String == "iphone-42" }?["offline"] as? Bool == false)
        }
    }
}
