import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TrackServer

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
}
