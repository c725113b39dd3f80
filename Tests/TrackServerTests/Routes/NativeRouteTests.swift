import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Testing
import TrackServer

@Suite("POST /v1/batches (native, docs/protocol.md §Batches)")
struct NativeRouteTests {
    @Test func acceptsABatchAndAcknowledgesEveryIdAfterCommit() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeBatch))
        }
        #expect(response.status == .ok)
        let decoded = try JSONDecoder().decode(BatchResponse.self, from: Data(response.body.readableBytesView))
        #expect(decoded.result == "ok")
        #expect(decoded.accepted.count == 2)
        #expect(decoded.duplicates.isEmpty && decoded.rejected.isEmpty)
        #expect(try await server.sampleCount() == 2)
        let stored = try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start)
        #expect(stored.first?.speed == 1.2)
        #expect(stored.first?.trigger == "timer")
        #expect(stored.first?.battery == 0.83)
    }

    @Test func resendingIsHarmlessAndReportsDuplicates() async throws {
        let server = try await TestServer()
        let second = try await server.test { client in
            for _ in 0..<2 {
                _ = try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                    body: ByteBuffer(text: Fixtures.nativeBatch))
            }
            return try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeBatch))
        }
        let decoded = try JSONDecoder().decode(BatchResponse.self, from: Data(second.body.readableBytesView))
        #expect(decoded.accepted.isEmpty)
        #expect(decoded.duplicates.count == 2)
        #expect(try await server.sampleCount() == 2)
    }

    @Test func rejectsOneBadSampleByIdNamingTheSampleAndField() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeWithBadSample))
        }
        let decoded = try JSONDecoder().decode(BatchResponse.self, from: Data(response.body.readableBytesView))
        #expect(decoded.accepted == ["0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e04"])
        #expect(decoded.rejected.first?.id == "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e03")
        let reason = decoded.rejected.first?.reason ?? ""
        #expect(reason.contains("sample 0") && reason.contains("latitude 91.2 is outside -90…90"))
        #expect(try await server.sampleCount() == 1)
    }

    @Test func aWrongTypeRejectsOnlyThatSampleNamingTheField() async throws {
        let server = try await TestServer()
        let body = Fixtures.nativeBatch.replacingOccurrences(of: "\"lat\": 31.2310", with: "\"lat\": \"north\"")
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(text: body))
        }
        let decoded = try JSONDecoder().decode(BatchResponse.self, from: Data(response.body.readableBytesView))
        #expect(decoded.accepted == ["0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01"])
        #expect(decoded.rejected.first?.reason == "sample 1: field \"lat\" must be a number, got string")
        #expect(try await server.sampleCount() == 1)
    }

    @Test func acceptsGzipBodies() async throws {
        let server = try await TestServer()
        let zipped = try Gzip.compress(Data(Fixtures.nativeBatch.utf8))
        var fields = HTTPFields.bearer(server.phoneToken)
        fields[.contentEncoding] = "gzip"
        let headers = fields
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: headers, body: ByteBuffer(bytes: zipped))
        }
        #expect(response.status == .ok)
        #expect(try await server.sampleCount() == 2)
    }

    @Test func tooManySamplesIs413SoThePhoneHalvesTheBatch() async throws {
        let server = try await TestServer { $0.maxSamplesPerBatch = 1 }
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeBatch))
        }
        #expect(response.status == .contentTooLarge)
        #expect(response.text.contains("more than the limit of 1"))
        #expect(try await server.sampleCount() == 0)
    }
}
