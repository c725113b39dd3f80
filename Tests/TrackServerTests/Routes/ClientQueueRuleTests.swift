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

/// Clients whose queue blocks (Traccar) or deletes (OwnTracks, Overland) on an error answer get a
/// 2xx for an authenticated but unusable point, which the server keeps aside with the reason.
@Suite struct ServerQuarantineTests {
    func get(_ server: TestServer, _ uri: String) async throws -> TestResponse {
        try await server.test { client in
            try await client.executeRequest(uri: uri, method: .get, headers: [:], body: nil)
        }
    }

    @Test func traccarsPointFromTheFutureIsAnswered200AndKeptAside() async throws {
        let server = try await TestServer()
        let future = TestServer.start.milliseconds / 1000 + 2 * 86_400
        let uri = "/ingest/osmand?id=iphone-42&token=\(server.phoneToken)&lat=31.2&lon=121.4&timestamp=\(future)"
        let response = try await server.test { client in
            try await client.executeRequest(uri: uri, method: .post, headers: [:], body: nil)
        }
        #expect(response.status == .ok, "Traccar would resend it forever otherwise")
        #expect(try await server.sampleCount() == 0)
        let list = try await get(server, "/v1/devices/iphone-42/rejected?token=\(server.operatorToken)")
        #expect(list.status == .ok)
        let json = try #require(list.json as? [String: Any])
        let rejected = try #require(json["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1 && rejected.first?["source"] as? String == "osmand")
        #expect((rejected.first?["raw"] as? String)?.contains("timestamp=\(future)") == true)
        let index = try await get(server, "/?token=\(server.operatorToken)")
        #expect(index.text.contains("<td>0</td><td>1</td></tr>"), "the index counts it")
        // Without a valid token nothing is kept and the answer is still an error.
        let stranger = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/osmand?id=iphone-42&token=bgd_wrong&lat=31.2&lon=121.4&timestamp=\(future)",
                method: .post, headers: [:], body: nil)
        }
        #expect(stranger.status.code >= 400)
        #expect(try await server.store.rejectedPoints(device: "iphone-42", limit: 10).count == 1)
    }

    @Test func traccarsZeroAccuracyIsUnknown() async throws {
        let server = try await TestServer()
        let time = TestServer.start.milliseconds / 1000 - 60
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/osmand?id=iphone-42&token=\(server.phoneToken)&lat=31.2&lon=121.4&timestamp=\(time)"
                    + "&accuracy=0",
                method: .post, headers: [:], body: nil)
        }
        #expect(response.status == .ok)
        let stored = try await server.store.samples(
            device: "iphone-42", from: TestServer.start - .seconds(3600), to: TestServer.start)
        #expect(stored.count == 1 && stored.first?.accuracy == nil)
    }

    @Test func ownTracksAndOverlandPointsAreKeptAsideNotLost() async throws {
        let server = try await TestServer()
        let bad = #"{"_type":"location","lat":91.5,"lon":2.35,"tst":1732240000}"#
        let overland = """
            {"locations":[
              {"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},
               "properties":{"timestamp":"2024-11-22T02:00:00Z"}},
              {"type":"Feature","geometry":{"type":"Point","coordinates":[200,48.85]},
               "properties":{"timestamp":"2024-11-22T02:01:00Z"}}]}
            """
        let (ownTracks, overlandAnswer) = try await server.test { client in
            (
                try await client.executeRequest(
                    uri: "/ingest/owntracks", method: .post,
                    headers: .basic(user: "alice", password: server.phoneToken),
                    body: ByteBuffer(text: bad)),
                try await client.executeRequest(
                    uri: "/ingest/overland", method: .post, headers: .bearer(server.phoneToken),
                    body: ByteBuffer(text: overland))
            )
        }
        #expect(ownTracks.status == .ok && ownTracks.text == "[]")
        #expect(overlandAnswer.status == .ok && overlandAnswer.text.contains("\"result\":\"ok\""))
        #expect(try await server.sampleCount() == 1)
        let rejected = try await server.store.rejectedPoints(device: "iphone-42", limit: 10)
        #expect(rejected.map(\.source).sorted() == ["overland", "owntracks"])
        #expect(rejected.contains { $0.raw.contains("91.5") } && rejected.contains { $0.raw.contains("200") })
    }
}
