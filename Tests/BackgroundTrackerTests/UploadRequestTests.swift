import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ShellSuite {
    /// Issue 26: the iOS shell sends what the Linux device sends, built by the same code.
    @Suite("The shell's upload uses the shared sync driver and request builder")
    @MainActor
    struct UploadRequestTests {
        @Test("the request is the shared builder's, and the file holds the driver's batch as gzip JSON")
        func sharedBuilder() throws {
            let harness = try ShellHarness()
            _ = try harness.trackingWithOneSample()

            let upload = try #require(harness.uploader.uploads.first)
            let expected = BatchRequest.urlRequest(
                server: try #require(URL(string: "https://tracks.example")), token: "secret-token", gzip: true)
            #expect(upload.request.url == expected.url)
            #expect(upload.request.httpMethod == expected.httpMethod)
            #expect(upload.request.allHTTPHeaderFields == expected.allHTTPHeaderFields)
            let batch = try JSONDecoder().decode(
                BatchRequest.self, from: Gzip.decompress(Data(contentsOf: upload.file)))
            let pending = try harness.store.oldestPending(limit: 10)
            #expect(batch.samples == pending.map(WireSample.init))
            #expect(batch.batch == BatchRequest.batchID(for: pending.map(\.id)).wireString)
            #expect(upload.description == batch.batch, "the file and the task are named by the batch id")
            // The zone the user is in rides with the batch (version 3, docs/protocol.md §Zones).
            #expect(batch.tz == TimeZone.current.identifier && batch.v == BatchRequest.timeZoneVersion)
        }

        @Test("a refused token's typed notice reaches the user as the uploads-held notification")
        func noticeDelivered() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingWithOneSample()
            let upload = try #require(harness.uploader.uploads.first)
            #expect(!tracker.status.notices.contains(.uploadsHeld))
            harness.uploader.finish(upload.description, status: 403, body: #"{"error":"device token revoked"}"#)
            #expect(tracker.status.notices.filter { $0 == .uploadsHeld }.count == 1)
        }
    }
}
