import Foundation
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
        #expect(policy.contains("script-src 'self';") && policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("script-src 'self' 'unsafe-inline'"))
        #expect(policy.contains("img-src 'self' data: https://tiles.example:8443;"))
    }

    /// Issue 23: the pages link with the operator token; no cache may keep them.
    @Test(arguments: [
        ("/?token=bgo_operator-token", true), ("/devices/iphone-42?token=bgo_operator-token", true),
        ("/v1/devices?token=bgo_operator-token", true), ("/healthz", false),
    ])
    func pagesAndTokenURLsAreNeverCached(uri: String, noStore: Bool) async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(uri: uri, method: .get, headers: [:], body: nil)
        }
        #expect((response.headers[.cacheControl] == "no-store") == noStore, "\(uri)")
    }

    /// Issue 23: with `script-src 'self'` an inline script would not run, so the pages have none:
    /// every `<script>` loads a file of this server or is a JSON data block, and no element has an
    /// event attribute.
    @Test(arguments: [false, true])
    func thePagesHaveNoInlineScript(leaflet: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("leaflet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in ["leaflet.js", "leaflet.css"] {
            try Data("/* \(file) */".utf8).write(to: directory.appendingPathComponent(file))
        }
        let server = try await TestServer { $0.leafletDirectory = leaflet ? directory.path : nil }
        _ = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeBatch))
        }
        for uri in ["/?token=bgo_operator-token", "/devices/iphone-42?day=2024-11-22&token=bgo_operator-token"] {
            let page = try await server.test { client in
                try await client.executeRequest(uri: uri, method: .get, headers: [:], body: nil)
            }.text
            let tags = page.components(separatedBy: "<script").dropFirst().map { $0.prefix { $0 != ">" } }
            #expect(!tags.isEmpty || !leaflet, "\(uri)")
            for tag in tags {
                #expect(tag.contains("src=\"/static/") || tag.contains("type=\"application/json\""), "\(uri): \(tag)")
            }
            #expect(page.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(uri)")
            for script in page.matches(of: /src="(\/static\/bgtrack\/[a-z-]+\.js)"/).map({ String($0.1) }) {
                let served = try await server.test { client in
                    try await client.executeRequest(uri: script, method: .get, headers: [:], body: nil)
                }
                #expect(served.status == .ok && served.text.contains("JSON.parse"), "\(script)")
            }
        }
    }

    @Test func withoutTilesImagesComeOnlyFromThisServer() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(uri: "/healthz", method: .get, headers: [:], body: nil)
        }
        #expect(response.headers[.contentSecurityPolicy]?.contains("img-src 'self' data:;") == true)
    }
}
