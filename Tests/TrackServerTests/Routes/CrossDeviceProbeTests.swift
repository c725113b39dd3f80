import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Testing
import TrackServer

/// Every way to read or write another device's data: all refused, nothing written.
@Suite("Cross-device probes")
struct CrossDeviceProbeTests {
    struct Probe: Sendable, CustomStringConvertible {
        var description: String
        var uri: String
        var method: HTTPRequest.Method
        var headers: HTTPFields
        var body: String?
    }

    static func probes(other: String, revoked: String, operatorToken: String) -> [Probe] {
        let native = Fixtures.nativeBatch
        return [
            Probe(
                description: "read track with other device's token", uri: "/v1/devices/iphone-42/track",
                method: .get, headers: .bearer(other), body: nil),
            Probe(
                description: "read map with other device's token", uri: "/devices/iphone-42?token=\(other)",
                method: .get, headers: [:], body: nil),
            Probe(
                description: "native upload naming iphone-42 with other's token", uri: "/v1/batches",
                method: .post, headers: .bearer(other), body: native),
            Probe(
                description: "overland with revoked token", uri: "/ingest/overland", method: .post,
                headers: .bearer(revoked), body: Fixtures.overland),
            // OwnTracks' user is free text (the token names the device): see ClientQueueRuleTests.
            Probe(
                description: "osmand id iphone-42 with other's token",
                uri: "/ingest/osmand?id=iphone-42&lat=1&lon=1&token=\(other)", method: .get, headers: [:], body: nil),
            Probe(
                description: "native upload without token", uri: "/v1/batches", method: .post, headers: [:],
                body: native),
            Probe(
                description: "track without token", uri: "/v1/devices/iphone-42/track", method: .get,
                headers: [:], body: nil),
            Probe(
                description: "map without token", uri: "/devices/iphone-42", method: .get, headers: [:],
                body: nil),
            Probe(description: "index without token", uri: "/", method: .get, headers: [:], body: nil),
            Probe(
                description: "track with revoked token", uri: "/v1/devices/iphone-42/track", method: .get,
                headers: .bearer(revoked), body: nil),
            Probe(
                description: "operator token cannot upload", uri: "/v1/batches", method: .post,
                headers: .bearer(operatorToken), body: native),
            Probe(
                description: "garbage token", uri: "/v1/batches", method: .post,
                headers: .bearer("bgd_0000"), body: native),
            Probe(
                description: "heartbeat with device token (not a session)", uri: "/v1/sessions/heartbeat",
                method: .post, headers: .bearer(other), body: nil),
            Probe(
                description: "login as iphone-42 with other's token", uri: "/v1/sessions", method: .post,
                headers: [.contentType: "application/json"],
                body: "{\"device\":\"iphone-42\",\"token\":\"\(other)\"}"),
        ]
    }

    @Test func everyProbeIsRefusedAndNothingIsWritten() async throws {
        let server = try await TestServer()
        let revokedToken = "bgd_revoked"
        _ = try await server.store.addDevice(name: "gone", tokenHash: Tokens.hash(revokedToken), at: server.clock.now)
        _ = try await server.store.revokeDevice(named: "gone", at: server.clock.now)
        let probes = Self.probes(other: server.otherToken, revoked: revokedToken, operatorToken: server.operatorToken)
        let statuses = try await server.test { client in
            var statuses: [(String, Int)] = []
            for probe in probes {
                let response = try await client.executeRequest(
                    uri: probe.uri, method: probe.method, headers: probe.headers,
                    body: probe.body.map { ByteBuffer(text: $0) })
                statuses.append((probe.description, response.status.code))
            }
            return statuses
        }
        for (description, code) in statuses {
            #expect([401, 403].contains(code), "\(description) answered \(code)")
        }
        #expect(statuses.count == 14)
        #expect(try await server.sampleCount("iphone-42") == 0)
        #expect(try await server.sampleCount("other") == 0)
    }

    @Test func operatorReadsEveryDevice() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/devices/other/track", method: .get, headers: .bearer(server.operatorToken), body: nil)
        }
        #expect(response.status == .ok)
    }
}
