import BackgroundCore
import Crypto
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Logging
import NIOCore
import Testing
import TrackServerPostgres

@testable import TrackServer

/// Issue 38 item 5: a client's own id for an import (`Import-Id`) and the file's declared digest
/// (`Repr-Digest`): a re-post resumes only the same file, the whole body is checked against the
/// digest before the job is finished, and every record is stored, refused or a duplicate.
@Suite struct ImportResumeTests {
    /// 3,000 GPX points, about 300 KB; `other` differs from `file` after its first 100 KB.
    static let file = ImportSampleFile.text(.gpx, records: 3_000)
    static let other: String = {
        let cut = file.index(file.startIndex, offsetBy: 100_000)
        return String(file[..<cut]) + file[cut...].replacingOccurrences(of: "lat=\"48.", with: "lat=\"47.")
    }()

    static func digest(_ text: some StringProtocol) -> String {
        ImportIdentity.text(sha256: Array(SHA256.hash(data: Array(text.utf8))))
    }

    static func post(
        _ server: TestServer, _ body: some StringProtocol, id: String? = nil, digest: String? = nil
    ) async throws -> (status: HTTPResponse.Status, answer: [String: Any]) {
        var headers: HTTPFields = [:]
        if let id { headers[.importID] = id }
        if let digest { headers[.reprDigest] = digest }
        let response = try await ImportRouteTests.post(server, String(body), headers: headers)
        return (response.status, try ImportRouteTests.answer(response))
    }

    /// Every point of `text` is stored for the device.
    static func expectAllStored(_ text: String, in server: TestServer) async throws {
        let wanted = Set(ImportHarness.read(text).samples.map(\.key))
        let stored = try await server.store.samples(
            device: "iphone-42", from: Instant(milliseconds: 0), to: Instant(milliseconds: .max), limit: nil)
        #expect(wanted.subtracting(stored.map(\.key)).isEmpty, "points of the file not stored")
    }

    static func jobRows(_ server: TestServer) async throws -> Int {
        try await server.store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM import_job") ?? -1 }
    }

    /// The counts of an answer add up: every point stored or a duplicate.
    static func expectCountsAddUp(_ answer: [String: Any], points: Int = 3_000) {
        let added = answer["added"] as? Int ?? -1
        let duplicates = answer["duplicates"] as? Int ?? -1
        #expect(answer["points"] as? Int == points && added + duplicates == points, "\(answer)")
    }

    /// A first try cut short (the client was killed mid-upload), then another file of the same
    /// length and first 100 KB under the same Import-Id with its own digest: read from its first
    /// record, every point of it stored, one job row. (Resuming on the word of the id would skip
    /// the records the first file's try stored.)
    @Test func anotherFileUnderTheSameImportIdIsReadFromItsStart() async throws {
        let server = try await TestServer()
        #expect(Self.file.utf8.count == Self.other.utf8.count && Self.file.utf8.count > 250_000)
        let cut = Self.file.prefix(200_000)
        let first = try await Self.post(server, cut, id: "trip-2024", digest: Self.digest(Self.file))
        #expect(first.status == .unprocessableContent && first.answer["finished"] as? Bool == false)
        #expect((first.answer["error"] as? String)?.contains("did not match its Repr-Digest") == true)
        let storedFirst = try await server.sampleCount()
        #expect(storedFirst > 1_000)
        let second = try await Self.post(server, Self.other, id: "trip-2024", digest: Self.digest(Self.other))
        #expect(second.status == .ok, "\(second.answer)")
        #expect(second.answer["finished"] as? Bool == true && second.answer["skipped"] as? Int == 0)
        #expect((second.answer["note"] as? String)?.contains("another Repr-Digest") == true, "\(second.answer)")
        Self.expectCountsAddUp(second.answer)
        try await Self.expectAllStored(Self.other, in: server)
        #expect(try await server.sampleCount() == storedFirst + (second.answer["added"] as? Int ?? -1))
        #expect(try await Self.jobRows(server) == 1)
        let job = try #require(
            try await server.store.importCheckpoint(device: "iphone-42", fingerprint: "id trip-2024"))
        #expect(job.finished && job.digest == Self.digest(Self.other))
    }

    /// The same file after a try cut short: the records that try committed are skipped, the rest
    /// stored, and the job finished once the whole body matched its digest. The answer's counts
    /// are the whole file's (the first try's carried on), `skipped` the records passed over.
    @Test func theSameFileResumesAndStoresOnlyTheRest() async throws {
        let server = try await TestServer()
        let digest = Self.digest(Self.file)
        let first = try await Self.post(server, Self.file.prefix(150_000), id: "trip-2024", digest: digest)
        #expect(first.status == .unprocessableContent && first.answer["finished"] as? Bool == false)
        let storedFirst = try await server.sampleCount()
        let saved = try #require(
            try await server.store.importCheckpoint(device: "iphone-42", fingerprint: "id trip-2024"))
        #expect(!saved.finished && saved.records > 1_000 && saved.digest == digest && saved.prefix != nil)
        let second = try await Self.post(server, Self.file, id: "trip-2024", digest: digest)
        #expect(second.status == .ok, "\(second.answer)")
        #expect(second.answer["finished"] as? Bool == true)
        #expect(second.answer["skipped"] as? Int == saved.records, "\(second.answer)")
        #expect((second.answer["note"] as? String)?.contains("resumed after record") == true)
        // Nothing read twice: no duplicates, the rest added.
        #expect(second.answer["duplicates"] as? Int == 0, "\(second.answer)")
        Self.expectCountsAddUp(second.answer)
        #expect(try await server.sampleCount() == 3_000 && storedFirst < 3_000)
        try await Self.expectAllStored(Self.file, in: server)
        #expect(try await Self.jobRows(server) == 1)
        // Finished: the same file again is read from its start, all duplicates.
        let third = try await Self.post(server, Self.file, id: "trip-2024", digest: digest)
        #expect(third.answer["skipped"] as? Int == 0 && third.answer["duplicates"] as? Int == 3_000)
        #expect((third.answer["note"] as? String)?.contains("imported before") == true, "\(third.answer)")
    }

    /// A digest the body does not match: 422, the job not finished, every record stored; the file
    /// sent again with its own digest resumes (its first bytes are the ones stored) and finishes.
    @Test func aBodyThatDoesNotMatchItsDigestIsNotFinishedAndLosesNothing() async throws {
        let server = try await TestServer()
        let lying = try await Self.post(server, Self.file, id: "trip-2024", digest: Self.digest(Self.other))
        #expect(lying.status == .unprocessableContent, "\(lying.answer)")
        let error = lying.answer["error"] as? String ?? ""
        #expect(error.contains("did not match its Repr-Digest") && error.contains(Self.digest(Self.file)), "\(error)")
        #expect(lying.answer["finished"] as? Bool == false)
        Self.expectCountsAddUp(lying.answer)
        #expect(try await server.sampleCount() == 3_000)
        let job = try #require(
            try await server.store.importCheckpoint(device: "iphone-42", fingerprint: "id trip-2024"))
        #expect(!job.finished)
        // Without an id the row is the digest's, and the same holds.
        let anonymous = try await Self.post(server, Self.other, digest: Self.digest(Self.file))
        #expect(anonymous.status == .unprocessableContent && anonymous.answer["finished"] as? Bool == false)
        let honest = try await Self.post(server, Self.file, id: "trip-2024", digest: Self.digest(Self.file))
        #expect(honest.status == .ok && honest.answer["finished"] as? Bool == true, "\(honest.answer)")
        Self.expectCountsAddUp(honest.answer)
    }

    /// A resume on the word of a digest a first try declared falsely: the second body (the file
    /// the digest names) does not start with the bytes whose records were skipped, so it is not
    /// answered finished; the job is reset, and the next try reads the file whole.
    @Test func aResumeWhoseBodyStartsOtherwiseIsRefusedAndTheNextTryReadsAll() async throws {
        let server = try await TestServer()
        let digest = Self.digest(Self.file)
        let lying = try await Self.post(server, Self.other.prefix(200_000), id: "trip-2024", digest: digest)
        #expect(lying.status == .unprocessableContent)
        let second = try await Self.post(server, Self.file, id: "trip-2024", digest: digest)
        #expect(second.status == .unprocessableContent, "\(second.answer)")
        #expect(second.answer["finished"] as? Bool == false)
        #expect((second.answer["error"] as? String)?.contains("does not start with the 200000 bytes") == true)
        let counts = ["points", "added", "duplicates"].map { second.answer[$0] as? Int ?? -1 }
        #expect(counts[0] == counts[1] + counts[2], "every point read stored or a duplicate: \(second.answer)")
        let reset = try #require(
            try await server.store.importCheckpoint(device: "iphone-42", fingerprint: "id trip-2024"))
        #expect(reset.records == 0 && !reset.finished && reset.digest == nil)
        let third = try await Self.post(server, Self.file, id: "trip-2024", digest: digest)
        #expect(third.status == .ok && third.answer["finished"] as? Bool == true, "\(third.answer)")
        #expect(third.answer["skipped"] as? Int == 0)
        Self.expectCountsAddUp(third.answer)
        try await Self.expectAllStored(Self.file, in: server)
    }

    /// An Import-Id without a digest: one row for every try, each read from the start.
    @Test func anImportIdAloneNamesOneRowAndReadsFromTheStart() async throws {
        let server = try await TestServer()
        let first = try await Self.post(server, Self.file.prefix(150_000), id: "a.b:c_d-1")
        #expect(first.status == .unprocessableContent)
        let second = try await Self.post(server, Self.file, id: "a.b:c_d-1")
        #expect(second.status == .ok && second.answer["skipped"] as? Int == 0)
        #expect((second.answer["duplicates"] as? Int ?? 0) > 1_000)
        Self.expectCountsAddUp(second.answer)
        #expect(try await Self.jobRows(server) == 1)
    }

    @Test func malformedHeadersAreRefusedWithWhatToSend() async throws {
        let server = try await TestServer()
        let body = ImportSampleFile.text(.gpx, records: 5)
        let good = Self.digest(body)
        let ids = ["", "has space", "ümlaut", "slash/no", String(repeating: "x", count: 129)]
        for id in ids {
            let response = try await ImportRouteTests.post(server, body, headers: [.importID: id])
            #expect(response.status == .badRequest, "\(id)")
            #expect(response.text.contains("Import-Id") && response.text.contains("1 to 128 characters"), "\(id)")
        }
        #expect(
            try await ImportRouteTests.post(server, body, headers: [.importID: String(repeating: "x", count: 128)])
                .status == .ok)
        let sixteen = Data(repeating: 1, count: 16).base64EncodedString()
        let sixtyFour = Data(repeating: 1, count: 64).base64EncodedString()
        let digests: [(String, String)] = [
            ("", "malformed"), ("sha-256=abc", "byte sequence"), ("sha-256=:abc", "closing colon"),
            ("sha-256=:!!!!:", "base64"), ("SHA-256=:\(good.dropFirst(9))", "lowercase"),
            ("sha-256=:\(sixteen):", "32"), ("sha-512=:\(sixtyFour):", "sha-256"), ("\(good),", "comma"),
            ("\(good) x", "comma"), ("sha-256", "no value"),
        ]
        for (digest, words) in digests {
            let response = try await ImportRouteTests.post(server, body, headers: [.reprDigest: digest])
            #expect(response.status == .badRequest, "\(digest)")
            #expect(
                response.text.contains("Repr-Digest") && response.text.contains(words), "\(digest): \(response.text)")
        }
        // Other algorithms beside sha-256 are allowed; parameters are ignored.
        let both = try await ImportRouteTests.post(
            server, body, headers: [.reprDigest: "sha-512=:\(sixtyFour):, \(good);x=1"])
        #expect(both.status == .ok, "\(both.text)")
        #expect(try await server.sampleCount() == 5)
    }

    /// A header of 100 KB is refused with a message of bounded size, nothing stored.
    @Test func aHugeHeaderIsRefusedBriefly() async throws {
        let server = try await TestServer()
        let body = ImportSampleFile.text(.gpx, records: 5)
        let huge = String(repeating: "a", count: 100_000)
        for headers: HTTPFields in [[.importID: huge], [.reprDigest: "sha-256=:" + huge + ":"]] {
            let response = try await ImportRouteTests.post(server, body, headers: headers)
            #expect(response.status == .badRequest && response.text.utf8.count < 1_000, "\(response.text.prefix(300))")
        }
        #expect(try await server.sampleCount() == 0)
    }

    /// The same cases through the route on PostgreSQL: a cut-short try, the same file resumed
    /// (only the rest stored, no duplicates), another file under the id read whole, one row.
    @Test(.postgres) func onPostgresTheSameFileResumesAndAnotherStartsOver() async throws {
        try await PostgresTestDatabase.withStore { store in
            _ = try await store.addDevice(
                name: "iphone-42", tokenHash: Tokens.hash(TestServer.phoneToken), at: TestServer.start)
            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            let environment = TrackServerEnvironment(
                store: store, clock: ManualTime(TestServer.start).serverClock, configuration: ServerConfiguration(),
                logger: quiet)
            let app = Application(router: buildRouter(environment), logger: quiet)
            func post(_ body: some StringProtocol, id: String, digest: String) async throws -> [String: Any] {
                let headers: HTTPFields = [
                    .authorization: "Bearer \(TestServer.phoneToken)", .importID: id, .reprDigest: digest,
                ]
                let text = String(body)
                let response = try await app.test(.router) { client in
                    try await client.executeRequest(
                        uri: "/v1/devices/iphone-42/imports", method: .post, headers: headers,
                        body: ByteBuffer(string: text))
                }
                return try ImportRouteTests.answer(response)
            }
            let digest = Self.digest(Self.file)
            let first = try await post(Self.file.prefix(150_000), id: "trip", digest: digest)
            #expect(first["finished"] as? Bool == false)
            let resumed = try await post(Self.file, id: "trip", digest: digest)
            #expect(resumed["finished"] as? Bool == true && (resumed["skipped"] as? Int ?? 0) > 1_000, "\(resumed)")
            #expect(resumed["duplicates"] as? Int == 0)
            Self.expectCountsAddUp(resumed)
            #expect(try await store.device(named: "iphone-42")?.sampleCount == 3_000)
            let other = try await post(Self.other, id: "trip", digest: Self.digest(Self.other))
            #expect(other["finished"] as? Bool == true && other["skipped"] as? Int == 0, "\(other)")
            #expect((other["note"] as? String)?.contains("another Repr-Digest") == true)
            Self.expectCountsAddUp(other)
            let added = other["added"] as? Int ?? -1
            let count = try await store.device(named: "iphone-42")?.sampleCount
            #expect(added > 1_000 && count == 3_000 + added)
            let job = try #require(try await store.importCheckpoint(device: "iphone-42", fingerprint: "id trip"))
            #expect(job.finished && job.digest == Self.digest(Self.other))
        }
    }

    /// The first bytes an earlier try's records lay in are checked however the network split the
    /// body: the hash at the boundary is the same for every chunk size.
    @Test func theFirstBytesAreCheckedHoweverTheBodyWasSplit() {
        let bytes = Array(Self.file.utf8)
        let boundary = 123_457
        let expected = "\(boundary) \(SHA256.hash(data: bytes.prefix(boundary)).hex)"
        for size in [1_000, 4_096, 65_536, boundary, bytes.count] {
            for prefix in [expected, "\(boundary) " + String(repeating: "0", count: 64)] {
                var body = BodyDigest(expecting: prefix)
                var rest = bytes[...]
                while !rest.isEmpty {
                    body.add(ByteBuffer(bytes: rest.prefix(size)))
                    rest = rest.dropFirst(size)
                }
                #expect(body.matched == (prefix == expected), "chunks of \(size)")
                #expect(body.hasher.finalize() == SHA256.hash(data: bytes), "chunks of \(size)")
            }
        }
    }
}
