import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import TrackServer

/// `POST /v1/devices/{id}/imports`: who may import, its limits, and what it answers.
@Suite struct ImportRouteTests {
    static func post(
        _ server: TestServer, _ body: String, device: String = "iphone-42", token: String? = TestServer.phoneToken,
        query: String = "", headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        let fields = headers
        return try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/devices/\(device)/imports\(query)", method: .post, headers: fields,
                body: ByteBuffer(string: body))
        }
    }

    static func answer(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
    }

    @Test func aDeviceImportsIntoItselfAndTheSameFileTwiceAddsNothing() async throws {
        let server = try await TestServer()
        let file = ImportSampleFile.text(.gpx, records: 30)
        let first = try await Self.post(server, file)
        #expect(first.status == .ok, "\(first.text)")
        let counts = try Self.answer(first)
        #expect(counts["format"] as? String == "GPX")
        #expect(counts["added"] as? Int == 30 && counts["finished"] as? Bool == true)
        let second = try Self.answer(try await Self.post(server, file))
        #expect(second["added"] as? Int == 0 && second["duplicates"] as? Int == 30)
        #expect(try await server.store.device(named: "iphone-42")?.sampleCount == 30)
    }

    @Test func onlyTheDevicesOwnTokenMayImport() async throws {
        let server = try await TestServer()
        let file = ImportSampleFile.text(.rec, records: 3)
        #expect(try await Self.post(server, file, token: nil).status == .unauthorized)
        #expect(try await Self.post(server, file, token: "bgd_nobody").status == .unauthorized)
        #expect(try await Self.post(server, file, token: TestServer.operatorToken).status == .forbidden)
        #expect(try await Self.post(server, file, token: TestServer.otherToken).status == .forbidden)
        #expect(try await server.store.device(named: "iphone-42")?.sampleCount == 0)
    }

    @Test func badRequestsAreRefusedWithWhatToDo() async throws {
        let server = try await TestServer()
        let file = ImportSampleFile.text(.geojson, records: 3)
        let format = try await Self.post(server, file, query: "?format=shapefile")
        #expect(format.status == .badRequest && format.text.contains("is not one of"))
        let gzip = try await Self.post(server, file, headers: [.contentEncoding: "gzip"])
        #expect(gzip.status == .unsupportedMediaType && gzip.text.contains("uncompressed"))
        let unknown = try await Self.post(server, "hello, world")
        #expect(unknown.status == .unsupportedMediaType && unknown.text.contains("?format="))
        let empty = try await Self.post(server, "")
        #expect(empty.status == .badRequest && empty.text.contains("empty"))
        #expect(try await server.store.device(named: "iphone-42")?.sampleCount == 0)
    }

    @Test func aBodyOverTheLimitIsRefusedAndWhatCameBeforeIsKept() async throws {
        let server = try await TestServer { $0.maxImportBytes = 2000 }
        let small = try await Self.post(server, ImportSampleFile.text(.rec, records: 3))
        #expect(small.status == .ok, "\(small.text)")
        let large = try await Self.post(server, ImportSampleFile.text(.rec, records: 100, seed: 2))
        #expect(large.status == .contentTooLarge || large.status == .unprocessableContent, "\(large.text)")
        #expect(large.text.contains("2000"), "\(large.text)")
        #expect(try await server.store.device(named: "iphone-42")?.sampleCount ?? 0 < 100)
    }

    @Test func aTruncatedFileKeepsWhatCameBeforeAndSaysWhere() async throws {
        let server = try await TestServer()
        let file = String(ImportSampleFile.text(.takeoutRecords, records: 10).dropLast(150))
        let response = try await Self.post(server, file)
        #expect(response.status == .unprocessableContent, "\(response.text)")
        let counts = try Self.answer(response)
        #expect(counts["added"] as? Int == 9 && counts["finished"] as? Bool == false)
        #expect((counts["error"] as? String)?.contains("truncated") == true)
    }

    @Test func problemsAreListedUpToAHundredAndAllCounted() async throws {
        let server = try await TestServer()
        var lines = ""
        for index in 0..<150 {
            lines +=
                "2024-03-01T08:00:00Z\t*\t{\"_type\":\"location\",\"tst\":1709280000,\"lat\":\(91 + index),\"lon\":11.5}\n"
        }
        lines += ImportSampleFile.text(.rec, records: 5)
        let counts = try Self.answer(try await Self.post(server, lines, query: "?format=owntracks-rec"))
        #expect(counts["rejected"] as? Int == 150 && counts["added"] as? Int == 5)
        let problems = try #require(counts["problems"] as? [String])
        #expect(problems.count == 100)
        #expect(problems.first?.contains("record 1 at byte 0 (line 1)") == true, "\(problems.first ?? "")")
    }

    /// A killed import of one file, then another of the same length and the same first 64 KiB that
    /// differs after them: every record of the second is stored. (The route once resumed on the
    /// word of the length and the first chunk, skipped the records the first file's import had
    /// done, and answered the second "finished" with them never stored.)
    @Test func anotherFileWithTheLengthAndHeadOfAnInterruptedImportIsReadWhole() async throws {
        let server = try await TestServer()
        let first = ImportSampleFile.text(.gpx, records: 3_000)
        let cut = first.index(first.startIndex, offsetBy: 100_000)
        let second = String(first[..<cut]) + first[cut...].replacingOccurrences(of: "lat=\"48.", with: "lat=\"47.")
        #expect(second.utf8.count == first.utf8.count && second != first && first.utf8.count > 200_000)
        // The first file's import was killed after 2,000 records: its row says so.
        var head = UploadHead()
        _ = head.add(ByteBuffer(string: first))
        let fingerprint = head.fingerprint(length: "\(first.utf8.count)")
        _ = try await server.store.commitImport(
            [], device: "iphone-42",
            checkpoint: ImportCheckpoint(
                fingerprint: fingerprint, format: "gpx", records: 2_000, bytes: 180_000, points: 2_000, added: 2_000),
            at: TestServer.start)
        let length: HTTPFields = [.contentLength: "\(second.utf8.count)"]
        let answer = try Self.answer(try await Self.post(server, second, headers: length))
        #expect(answer["finished"] as? Bool == true)
        #expect(answer["points"] as? Int == 3_000 && answer["added"] as? Int == 3_000, "\(answer)")
        #expect(try await server.store.device(named: "iphone-42")?.sampleCount == 3_000)
        // The first file sent again is read whole too: its points are all there, none twice.
        let again = try Self.answer(try await Self.post(server, first, headers: length))
        #expect(again["points"] as? Int == 3_000, "\(again)")
        #expect(
            (again["added"] as? Int ?? 0) + (again["duplicates"] as? Int ?? 0) == 3_000
                && (again["finished"] as? Bool) == true, "\(again)")
        let stored = try await server.store.device(named: "iphone-42")?.sampleCount ?? 0
        #expect(stored == 3_000 + (again["added"] as? Int ?? -1))
    }

    /// The head that names an import's row is the same however the body was split.
    @Test func theHeadIsTheSameHoweverTheBodyWasSplit() throws {
        let file = "   \n" + ImportSampleFile.text(.gpx, records: 1_500)
        var names: Set<String> = []
        for size in [1, 7, 1_000, 65_536, file.utf8.count] {
            var head = UploadHead()
            var bytes = Array(file.utf8)[...]
            var whole = false
            while !bytes.isEmpty, !whole {
                whole = head.add(ByteBuffer(bytes: bytes.prefix(size)))
                bytes = bytes.dropFirst(size)
            }
            #expect(whole && head.bytes.count == UploadHead.size, "chunks of \(size)")
            names.insert(head.fingerprint(length: "\(file.utf8.count)"))
        }
        #expect(names.count == 1)
        // A body of white space holds nothing.
        var spaces = UploadHead()
        let whole = spaces.add(ByteBuffer(string: String(repeating: " ", count: 100_000)))
        #expect(!whole)
        let held = spaces.take()
        #expect(held.isEmpty && spaces.bytes.isEmpty)
    }
}
