import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Logging
import Testing

@testable import TrackServer

/// What each client does with our answers decides what we may answer (issue 9): OwnTracks iOS
/// deletes a message on any 4xx, Overland never splits a batch it was refused.
@Suite struct ClientQueueRuleTests {
    /// OwnTracks' usual set-up: user = the person, device = the phone. The token names the device.
    @Test func ownTracksUserNeedNotBeTheDeviceName() async throws {
        let server = try await TestServer()
        let headers = {
            var fields = HTTPFields.basic(user: "alice", password: server.phoneToken)
            fields[HTTPField.Name("X-Limit-U")!] = "alice"
            fields[HTTPField.Name("X-Limit-D")!] = "iPhone"
            return fields
        }()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/owntracks", method: .post, headers: headers,
                body: ByteBuffer(text: Fixtures.ownTracksLocation))
        }
        #expect(response.status == .ok && response.text == "[]")
        #expect(try await server.sampleCount("iphone-42") == 1)
        #expect(try await server.sampleCount("other") == 0)
        let wrong = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/owntracks", method: .post, headers: .basic(user: "alice", password: "bgd_wrong"),
                body: ByteBuffer(text: Fixtures.ownTracksLocation))
        }
        #expect(wrong.status == .unauthorized, "the token still decides")
    }

    /// Overland sends up to 1,000 locations plus `current` and never halves: 1,001 is not a 413,
    /// whatever `--max-batch` says for our own client.
    @Test(arguments: [1000, 100])
    func overlandsLargestBatchWithCurrentIsAccepted(maxBatch: Int) async throws {
        let server = try await TestServer { $0.maxSamplesPerBatch = maxBatch }
        func feature(_ index: Int) -> String {
            let time = Instant(milliseconds: TestServer.start.milliseconds - 3_600_000 + Int64(index) * 1000)
            return
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[121.47,\#(31.0 + Double(index) * 1e-4)]},"#
                + #""properties":{"timestamp":"\#(time.iso8601)","horizontal_accuracy":5}}"#
        }
        let body =
            #"{"locations":["# + (0..<1000).map(feature).joined(separator: ",") + #"],"current":"#
            + feature(1000) + "}"
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/overland", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: body))
        }
        #expect(response.status == .ok, "\(response.text.prefix(200))")
        #expect(response.text.contains("\"result\":\"ok\""))
        #expect(try await server.sampleCount() == 1001)
    }

    /// A batch id with a newline cannot forge a log line; a huge one cannot flood the log.
    @Test func clientTextIsEscapedAndBoundedInLogs() async throws {
        let logs = CapturedLogs()
        let server = try await TestServer(logger: logs.logger(level: .trace))
        let forged =
            "b\\nFORGED level=critical message=\\\"server compromised\\\"" + String(repeating: "x", count: 20_000)
        let body = Fixtures.nativeBatch.replacingOccurrences(
            of: #""batch": "6f1c2a44-8d0e-4a52-9d39-0a0d7c1e2b11""#, with: #""batch": "\#(forged)""#)
        #expect(body.contains("FORGED"))
        _ = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(text: body))
        }
        let lines = logs.text.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("FORGED") }, "a forged line:\n\(logs.text.prefix(2000))")
        #expect(logs.text.utf8.count < 10_000, "the log grew by \(logs.text.utf8.count) bytes")
    }

    @Test func logTextEscapesControlsAndBoundsLength() {
        #expect(LogText.bounded("a\nb\r\tc\u{1b}[31m") == #"a\nb\r\tc\u{1b}[31m"#)
        #expect(LogText.bounded(String(repeating: "é", count: 500)).hasSuffix("…(1000 bytes)"))
    }
}
