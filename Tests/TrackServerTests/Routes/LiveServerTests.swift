import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Testing
import TrackServer

/// The same app on a real socket (port 0): HTTP framing, keep-alive and gzip as a client sends them.
@Suite("Live server on a socket")
struct LiveServerTests {
    @Test func healthAndAGzipBatchOverARealSocket() async throws {
        let server = try await TestServer()
        let app = server.liveApp
        let zipped = try Gzip.compress(Data(Fixtures.nativeBatch.utf8))
        var fields = HTTPFields.bearer(server.phoneToken)
        fields[.contentEncoding] = "gzip"
        let headers = fields
        let (health, upload) = try await app.testLive { client in
            (
                try await client.executeRequest(uri: "/healthz", method: .get, headers: [:], body: nil),
                try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: headers, body: ByteBuffer(bytes: zipped))
            )
        }
        #expect(health.status == .ok)
        #expect(upload.status == .ok)
        let decoded = try JSONDecoder().decode(BatchResponse.self, from: Data(upload.body.readableBytesView))
        #expect(decoded.accepted.count == 2)
        #expect(try await server.sampleCount() == 2)
    }
}
