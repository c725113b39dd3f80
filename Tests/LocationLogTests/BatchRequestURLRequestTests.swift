import BackgroundCore
import Foundation
import LocationLog
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one `BatchRequest` → `URLRequest` builder the Linux device and the iOS shell share.
@Suite struct BatchRequestURLRequestTests {
    func base() throws -> URL { try #require(URL(string: "https://track.example/base")) }
    let batch = BatchRequest(
        batch: "4f0c9e5a-0000-8000-8000-000000000001", device: "iphone-42",
        samples: [
            WireSample(
                id: "00000000-0000-4000-8000-000000000001", seq: 1,
                values: SampleValues(time: Instant(milliseconds: 1_732_240_000_000), latitude: 31.2, longitude: 121.4))
        ])

    @Test func postsToTheBatchEndpointWithTheTokenAndJSONHeaders() throws {
        let server = try base()
        let request = BatchRequest.urlRequest(server: server, token: "bgd_secret", gzip: true)
        #expect(request.url?.absoluteString == "https://track.example/base/v1/batches")
        #expect(request.httpMethod == "POST")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer bgd_secret")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Encoding") == "gzip")
        #expect(request.httpBody == nil, "a background session uploads the body from a file")
        let plain = BatchRequest.urlRequest(server: server, token: "t", gzip: false, timeout: .seconds(12))
        #expect(plain.value(forHTTPHeaderField: "Content-Encoding") == nil)
        #expect(plain.timeoutInterval == 12)
    }

    @Test func theBodyIsTheBatchAsJSONGzippedOrNot() throws {
        let server = try base()
        let zipped = try batch.urlRequest(server: server, token: "t", gzip: true)
        let body = try #require(zipped.httpBody)
        #expect(try JSONDecoder().decode(BatchRequest.self, from: Gzip.decompress(body)) == batch)
        let plain = try batch.httpBody(gzip: false)
        #expect(try JSONDecoder().decode(BatchRequest.self, from: plain) == batch)
        let unzipped = try Gzip.decompress(batch.httpBody(gzip: true))
        #expect(unzipped.count == plain.count, "the same JSON, compressed")
    }

    /// A sample the encoder cannot write (an infinite coordinate) is an error, never a crash.
    @Test func anUnencodableBatchThrows() throws {
        let server = try base()
        var hostile = batch
        hostile.samples[0].latitude = .infinity
        #expect(throws: (any Error).self) { try hostile.urlRequest(server: server, token: "t", gzip: true) }
    }

    /// Huge batches (far beyond the server's limit) still build; the server answers 413.
    @Test func aHugeBatchBuildsAndCompresses() throws {
        var huge = batch
        huge.samples = Array(repeating: batch.samples[0], count: 50_000)
        let body = try huge.httpBody(gzip: true)
        #expect(body.count < (try huge.httpBody(gzip: false)).count / 5)
    }
}
