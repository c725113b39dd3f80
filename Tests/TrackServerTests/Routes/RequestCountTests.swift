import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TrackServer

/// `bgtrack_http_requests_total` by method and status: counted per request without an actor hop
/// (``ServerMetrics``), and shown in `/metrics` as before.
@Suite struct RequestCountTests {
    @Test func everyAnsweredRequestIsCountedByMethodAndStatus() async throws {
        let server = try await TestServer()
        let metrics = try await server.test { client in
            for _ in 0..<2 {
                #expect(
                    try await client.executeRequest(uri: "/healthz", method: .get, headers: [:], body: nil).status
                        == .ok)
            }
            let missing = try await client.executeRequest(uri: "/no-such-page", method: .get, headers: [:], body: nil)
            #expect(missing.status == .notFound)
            let refused = try await client.executeRequest(
                uri: "/ingest/owntracks", method: .post, headers: [:], body: ByteBuffer(text: "{}"))
            #expect(refused.status == .unauthorized)
            return try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil).text
        }
        #expect(metrics.contains("bgtrack_http_requests_total{method=\"GET\",status=\"200\"} 2\n"), "\(metrics)")
        #expect(metrics.contains("bgtrack_http_requests_total{method=\"GET\",status=\"404\"} 1\n"))
        #expect(metrics.contains("bgtrack_http_requests_total{method=\"POST\",status=\"401\"} 1\n"))
        #expect(metrics.components(separatedBy: "# TYPE bgtrack_http_requests_total counter").count == 2, "one family")
        let environment = server.environment
        #expect(
            await environment.metrics.value("bgtrack_http_requests_total", ["method": "GET", "status": "200"]) == 3)
        #expect(
            await environment.metrics.value("bgtrack_http_requests_total", ["method": "PUT", "status": "200"]) == 0)
    }
}
