import BackgroundCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocationLog
import NIOCore
import Testing

@testable import TrackServer

/// Zip archives, as Google Takeout delivers them, import directly (issue 38 item 5).
@Suite("Imports: zip archives read as they stream")
struct ZipImportTests {
    struct Member {
        var name: String
        var data: [UInt8]
        var deflated = true
        /// Sizes after the data (flag bit 3), as streaming zip writers do.
        var descriptor = false
        var zip64 = false
    }

    /// A zip archive of `members`: local headers, data and descriptors, then a central directory
    /// marker and its end record (what follows the entries is not read by the importer). Deflate
    /// data is zlib's gzip output without its 10-byte header and 8-byte trailer; the CRC-32 is the
    /// trailer's.
    static func zip(_ members: [Member]) throws -> [UInt8] {
        func le(_ value: UInt64, _ bytes: Int) -> [UInt8] {
            (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        var out: [UInt8] = []
        for member in members {
            let gzip = [UInt8](try Gzip.compress(Data(member.data)))
            let crc = gzip[gzip.count - 8..<gzip.count - 4].enumerated().reduce(UInt64(0)) {
                $0 | UInt64($1.element) << (8 * $1.offset)
            }
            let body = member.deflated ? Array(gzip[10..<gzip.count - 8]) : member.data
            let (compressed, size) = (UInt64(body.count), UInt64(member.data.count))
            let name = Array(member.name.utf8)
            let extra = member.zip64 ? le(1, 2) + le(16, 2) + le(size, 8) + le(compressed, 8) : []
            out += le(0x0403_4B50, 4) + le(member.zip64 ? 45 : 20, 2) + le(member.descriptor ? 8 : 0, 2)
            out += le(member.deflated ? 8 : 0, 2) + le(0, 4)
            if member.descriptor {
                out += le(0, 12)
            } else if member.zip64 {
                out += le(crc, 4) + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4)
            } else {
                out += le(crc, 4) + le(compressed, 4) + le(size, 4)
            }
            out += le(UInt64(name.count), 2) + le(UInt64(extra.count), 2) + name + extra + body
            if member.descriptor {
                out += le(0x0807_4B50, 4) + le(crc, 4) + le(compressed, member.zip64 ? 8 : 4)
                out += le(size, member.zip64 ? 8 : 4)
            }
        }
        return out + le(0x0201_4B50, 4) + le(0, 42) + le(0x0605_4B50, 4) + le(0, 18)
    }

    static let records = Array(ImportSampleFile.text(.takeoutRecords, records: 300, seed: 5).utf8)
    static let gpx = Array(ImportSampleFile.text(.gpx, records: 120, seed: 6).utf8)

    static func takeout() throws -> [UInt8] {
        try zip([
            Member(name: "Takeout/archive_browser.html", data: Array("<html>not a track</html>".utf8), deflated: false),
            Member(name: "Takeout/Location History (Timeline)/", data: [], deflated: false),
            Member(name: "Takeout/Location History (Timeline)/Records.json", data: records, descriptor: true),
            Member(
                name: "Takeout/Location History (Timeline)/Settings.json", data: Array(#"{"createdTime":"2024"}"#.utf8)),
            Member(name: "Takeout/Fit/Activities/run.gpx", data: gpx, deflated: false),
            Member(name: "Takeout/Drive/notes.txt", data: Array(repeating: 65, count: 5_000), descriptor: true),
        ])
    }

    /// A Takeout-like archive gives the points of its location files, the same as the files read
    /// alone, however the bytes are cut; other entries are skipped.
    @Test func aTakeoutArchiveGivesTheSamePointsAsItsFiles() throws {
        let archive = try Self.takeout()
        #expect(ImportFormat.detect(head: archive.prefix(64)) == .zip)
        let alone = ImportHarness.read(Self.records).samples + ImportHarness.read(Self.gpx).samples
        #expect(alone.count == 420)
        for chunk in [1, 7, 4096, archive.count] {
            let result = ImportHarness.read(archive, chunk: chunk)
            #expect(result.failure == nil, "chunks of \(chunk): \(result.failure?.message ?? "")")
            #expect(result.samples == alone, "chunks of \(chunk)")
            #expect(result.problems.isEmpty, "\(result.problems)")
            #expect(result.formatName.contains("Records.json") && result.formatName.contains("run.gpx"))
            #expect(!result.formatName.contains("notes.txt") && !result.formatName.contains("archive_browser"))
        }
    }

    /// ZIP64 sizes, with and without a descriptor, and a stored entry of known size.
    @Test func zip64EntriesAreRead() throws {
        let archive = try Self.zip([
            Member(name: "a/Records.json", data: Self.records, zip64: true),
            Member(name: "b/track.gpx", data: Self.gpx, descriptor: true, zip64: true),
        ])
        let result = ImportHarness.read(archive, chunk: 333)
        #expect(result.failure == nil, "\(result.failure?.message ?? "")")
        #expect(result.samples.count == 420)
    }

    /// Records are numbered across the entries: a resumed import skips exactly the records read.
    @Test func aResumedArchiveSkipsTheRecordsAlreadyRead() throws {
        let archive = try Self.takeout()
        let whole = ImportHarness.read(archive)
        for skip in [0, 1, 299, 300, 301, 350] {
            var pipeline = ImportPipeline(
                format: .zip, fingerprint: "z", now: ImportHarness.now,
                resume: ImportCheckpoint(fingerprint: "z", format: "zip", records: skip))
            let samples =
                archive.withUnsafeBufferPointer { pipeline.feed($0) }.flatMap(\.samples)
                + pipeline.finish().flatMap(\.samples)
            #expect(pipeline.failure == nil)
            #expect(samples == Array(whole.samples.dropFirst(skip)), "skipping \(skip)")
        }
    }

    /// A positioned problem names its entry; a cut archive and a damaged one say so.
    @Test func problemsNameTheEntryAndBrokenArchivesSayWhat() throws {
        var bad = Self.gpx
        if let range = String(decoding: bad, as: UTF8.self).range(of: "<trkpt lat=\"48.") {
            let at = String(decoding: bad, as: UTF8.self).utf8.distance(
                from: String(decoding: bad, as: UTF8.self).utf8.startIndex,
                to: range.upperBound.samePosition(
                    in: String(decoding: bad, as: UTF8.self).utf8) ?? range.upperBound)
            bad[at - 3] = UInt8(ascii: "9")  // latitude 98.x
        }
        let archive = try Self.zip([Member(name: "x/track.gpx", data: bad)])
        let result = ImportHarness.read(archive)
        #expect(result.samples.count == 119)
        #expect(result.problems.first?.message.hasPrefix("x/track.gpx: record 1 at byte") == true, "\(result.problems)")

        let whole = try Self.takeout()
        let cut = ImportHarness.read(Array(whole.prefix(whole.count / 2)))
        #expect(cut.failure?.message.contains("truncated") == true, "\(cut.failure?.message ?? "")")
        var damaged = whole
        damaged[0] = 0x51
        #expect(ImportHarness.read(damaged, format: .zip).failure?.message.contains("not an entry's header") == true)
    }

    /// Archives with bytes flipped, cut or repeated anywhere (seeded) never trap, hang or report
    /// more points than the archive holds: each either reads or says what broke.
    @Test func damagedArchivesNeverTrap() throws {
        let archive = try Self.zip([
            Member(
                name: "a/Records.json", data: Array(ImportSampleFile.text(.takeoutRecords, records: 15).utf8),
                descriptor: true),
            Member(name: "b/run.gpx", data: Array(ImportSampleFile.text(.gpx, records: 15).utf8), zip64: true),
            Member(name: "c/x.plt", data: Array("Geolife trajectory\n".utf8), deflated: false),
        ])
        #expect(ImportHarness.read(archive).samples.count == 30)
        var random = SeededRandom(seed: 38_005)
        var outcomes: [String: Int] = [:]
        for round in 0..<2_000 {
            var bytes = archive
            switch round % 3 {
            case 0:
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 1: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
            default:
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 40)], at: at)
            }
            let result = ImportHarness.read(bytes, format: .zip, chunk: Int.random(in: 1...5_000, using: &random))
            #expect(result.samples.count <= 200, "round \(round)")
            outcomes[result.failure == nil ? "read" : "failed", default: 0] += 1
        }
        #expect(outcomes["read", default: 0] > 0 && outcomes["failed", default: 0] > 0, "\(outcomes)")
    }

    /// The import route takes a Takeout archive as it is.
    @Test func theRouteImportsAnArchive() async throws {
        let server = try await TestServer()
        let archive = try Self.takeout()
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/devices/iphone-42/imports", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(bytes: archive))
        }
        #expect(response.status == .ok, "\(response.text)")
        let answer = try ImportRouteTests.answer(response)
        #expect(answer["added"] as? Int == 420 && answer["finished"] as? Bool == true, "\(answer)")
        #expect((answer["format"] as? String)?.hasPrefix("zip (") == true)
        #expect(try await server.store.device(named: "iphone-42")?.sampleCount == 420)
    }
}
