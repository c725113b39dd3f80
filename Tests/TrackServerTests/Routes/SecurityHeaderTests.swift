import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TrackServer

/// Pages carry the operator token in their URL: no referrer, no framing, no sniffing, no foreign scripts.
@Suite struct SecurityHeaderTests {
    @Test(arguments: ["/?token=bgo_operator-token", "/healthz", "/v1/devices", "/nowhere", "/devices/iphone-42"])
    func everyAnswerCarriesTheHeaders(uri: String) async throws {
        let server = try await TestServer { $0.tileURL = "https://tiles.example:8443/{z}/{x}/{y}.png" }
        let response = try await server.test { client in
            try await client.executeRequest(uri: uri, method: .get, headers: [:], body: nil)
        }
        let headers = response.headers
        #expect(headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
        #expect(headers[.xContentTypeOptions] == "nosniff")
        #expect(headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
        let policy = try #require(headers[.contentSecurityPolicy])
        #expect(policy.contains("script-src 'self' 'unsafe-inline';") && policy.contains("frame-ancestors 'none'"))
        #expect(policy.contains("img-src 'self' data: https://tiles.example:8443;"))
    }

    @Test func withoutTilesImagesComeOnlyFromThisServer() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(uri: "/healthz", method: .get, headers: [:], body: nil)
        }
        #expect(response.headers[.contentSecurityPolicy]?.contains("img-src 'self' data:;") == true)
    }
}
