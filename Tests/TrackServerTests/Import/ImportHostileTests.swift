import BackgroundCore
import Foundation
import Testing
import TrackServer

/// Malformed, truncated and hostile import files: each bad record reported with its position and
/// why, the rest imported; broken structure stops the file with a message saying what to do.
@Suite struct ImportHostileTests {
    static func records(_ bodies: [String]) -> String {
        "{\"locations\":[" + bodies.joined(separator: ",") + "]}"
    }

    static func location(lat: String = "481370000", time: String = "\"2024-03-01T08:00:00Z\"", extra: String = "")
        -> String
    {
        "{\"latitudeE7\":\(lat),\"longitudeE7\":115750000,\"timestamp\":\(time)\(extra)}"
    }

    @Test func aCoordinateOutOfRangeIsReportedWithItsPositionAndTheRestImport() throws {
        let text = Self.records([
            Self.location(), Self.location(lat: "912000000", time: "\"2024-03-01T08:02:00Z\""),
            Self.location(time: "\"2024-03-01T08:04:00Z\""),
        ])
        let result = ImportHarness.read(text)
        #expect(result.samples.count == 2)
        let problem = try #require(result.problems.first)
        #expect(problem.position.record == 1)
        #expect(problem.message.contains("record 2 at byte 98"), "\(problem.message)")
        #expect(problem.message.contains("latitude 91.2 is outside -90…90"), "\(problem.message)")
        #expect(result.checkpoint.rejected == 1 && result.checkpoint.points == 2)
    }

    @Test(arguments: [
        ("NaN", "is not valid JSON"), ("1e999", "is not valid JSON"), ("\"north\"", "must be a number"),
        ("null", "is required and missing"),
    ])
    func aNonNumberLatitudeIsOneBadRecord(value: String, expected: String) throws {
        let result = ImportHarness.read(
            Self.records([Self.location(lat: value), Self.location(time: "\"2024-03-01T09:00:00Z\"")]))
        #expect(result.samples.count == 1)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.message.contains(expected) == true, "\(result.problems)")
    }

    @Test(arguments: [
        ("\"9999-01-01T00:00:00Z\"", "more than a day after"), ("\"1970-01-01T00:00:00Z\"", "before 2000-01-01"),
        ("\"yesterday\"", "is not an ISO-8601 time"), ("\"2024-13-45T99:00:00Z\"", "is not an ISO-8601 time"),
    ])
    func anAbsurdTimestampIsOneBadRecord(time: String, expected: String) {
        let result = ImportHarness.read(Self.records([Self.location(time: time)]))
        #expect(result.samples.isEmpty)
        #expect(result.problems.first?.message.contains(expected) == true, "\(result.problems)")
    }

    @Test func aDeeplyNestedRecordIsRefusedWithoutRecursingAndTheRestImport() {
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let text = Self.records([
            Self.location(extra: ",\"x\":\(deep)"), Self.location(time: "\"2024-03-01T09:00:00Z\""),
        ])
        let result = ImportHarness.read(text, chunk: 65_536)
        #expect(result.samples.count == 1)
        #expect(result.problems.first?.message.contains("nested more than 32 levels") == true, "\(result.problems)")
    }

    @Test func aHugeStringIsRefusedWithoutKeepingItAndTheRestImport() {
        let huge = String(repeating: "x", count: 9 << 20)
        let text = Self.records([
            Self.location(extra: ",\"note\":\"\(huge)\""), Self.location(time: "\"2024-03-01T09:00:00Z\""),
        ])
        let result = ImportHarness.read(text, chunk: 1 << 20)
        #expect(result.samples.count == 1)
        #expect(result.problems.first?.message.contains("larger than 8 MiB") == true, "\(result.problems)")
    }

    @Test func nestingOutsideTheRecordsIsOnlyCounted() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let text = "{\"other\":\(deep),\"locations\":[\(Self.location())]}"
        let result = ImportHarness.read(text)
        #expect(result.samples.count == 1 && result.failure == nil)
    }

    /// Cut inside the third record's number, inside its time string, and after it but before `]`.
    @Test(arguments: [("\"latitudeE7\": ", 3, 2), ("\"timestamp\": \"20", 3, 2), ("\n  ]", 1, 3)])
    func aTruncatedFileKeepsTheRecordsBeforeTheCutAndSaysSo(marker: String, occurrence: Int, expected: Int) throws {
        let text = Array(ImportSampleFile.text(.takeoutRecords, records: 3).utf8)
        let needle = Array(marker.utf8)
        var found = 0
        var cut = 0
        for index in 0...(text.count - needle.count) where text[index..<(index + needle.count)].elementsEqual(needle) {
            found += 1
            if found == occurrence {
                cut = index + needle.count
                break
            }
        }
        #expect(cut > 0)
        let result = ImportHarness.read(Array(text.prefix(cut)))
        let failure = try #require(result.failure)
        #expect(failure.message.contains("truncated"), "\(failure.message)")
        #expect(result.samples.count == expected)
        #expect(!result.checkpoint.finished)
    }

    @Test(arguments: ["", "   \n", "hello", "{\"locations\":[]} trailing", "]"])
    func somethingThatIsNotAnExportIsRefusedWithAMessage(text: String) throws {
        let result = ImportHarness.read(text, format: .json)
        let failure = try #require(result.failure)
        #expect(!failure.message.isEmpty)
        #expect(result.samples.isEmpty)
    }

    @Test func aRecordThatIsNotAnObjectIsOneBadRecord() {
        let result = ImportHarness.read("{\"locations\":[42, \"x\", \(Self.location())]}")
        #expect(result.samples.count == 1)
        #expect(result.problems.count == 2)
        #expect(result.problems.first?.message.contains("record 1 at byte 14") == true, "\(result.problems)")
    }

    @Test func aByteOrderMarkAndCRLFLineEndsAreRead() {
        let bom = "\u{FEFF}"
        let json = bom + ImportSampleFile.text(.takeoutRecords, records: 3).replacingOccurrences(of: "\n", with: "\r\n")
        #expect(ImportHarness.read(json).samples.count == 3)
        let gpx = bom + ImportSampleFile.text(.gpx, records: 3).replacingOccurrences(of: "\n", with: "\r\n")
        #expect(ImportHarness.read(gpx).samples.count == 3)
        let rec = bom + ImportSampleFile.text(.rec, records: 3).replacingOccurrences(of: "\n", with: "\r\n")
        let result = ImportHarness.read(rec)
        #expect(result.samples.count == 3, "\(result.problems)")
        #expect(ImportFormat.detect(head: Array(rec.utf8)) == .rec)
    }

    @Test func anEntityBombIsNeverExpanded() {
        var entities = "<!ENTITY lol \"lol\">"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            entities += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        let text = """
            <?xml version="1.0"?><!DOCTYPE gpx [\(entities)<!ENTITY ext SYSTEM "file:///etc/passwd">]>
            <gpx><trk><trkseg>
            <trkpt lat="48.1" lon="11.5"><time>&lol9;</time><name>&ext;</name></trkpt>
            <trkpt lat="48.1" lon="11.5"><time>2024-03-01T08:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let result = ImportHarness.read(text)
        #expect(result.failure == nil)
        #expect(result.samples.count == 1)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.message.contains("&lol9;") == true, "\(result.problems)")
    }

    /// A megabyte in one attribute, or in one `<time>`, is refused where it starts, never buffered:
    /// the points before it are read, and the message says what was too long.
    @Test func aHugeAttributeOrTextInAGPXIsRefusedWhereItStarts() throws {
        let head = "<gpx><trk><trkseg><trkpt lat=\"48.1\" lon=\"11.5\"><time>2024-03-01T08:00:00Z</time></trkpt>\n"
        let huge = String(repeating: "x", count: 1 << 20)
        let tag = ImportHarness.read(
            head + "<trkpt lat=\"48.1\" lon=\"11.5\" name=\"\(huge)\"><time>2024-03-01T08:02:00Z</time></trkpt>"
                + "</trkseg></trk></gpx>")
        #expect(tag.samples.count == 1)
        let tagMessage = try #require(tag.failure).message
        #expect(tagMessage.contains("a tag longer than 64 KiB at byte"), "\(tagMessage)")
        let text = ImportHarness.read(
            head + "<trkpt lat=\"48.1\" lon=\"11.5\"><time>\(huge)</time></trkpt></trkseg></trk></gpx>")
        #expect(text.samples.count == 1)
        let textMessage = try #require(text.failure).message
        #expect(textMessage.contains("a text longer than 64 KiB"), "\(textMessage)")
    }

    @Test func xmlCommentsAndCDATAAreSkippedAndATruncatedGPXSaysSo() throws {
        let text = """
            <gpx><!-- a <trkpt> in a comment --><trk><trkseg><trkpt lat="48.1" lon="11.5"><time><![CDATA[2024-03-01T08:00:00Z]]></time></trkpt>
            <trkpt lat="91" lon="11.5"><time>2024-03-01T08:02:00Z</time></trkpt>
            <trkpt lat="48.1" lon="11.5"><time>2024-03-01T08:04:00Z</time></trkpt><trkpt lat="48
            """
        let result = ImportHarness.read(text)
        #expect(result.samples.count == 2)
        #expect(result.problems.first?.message.contains("latitude 91.0 is outside") == true, "\(result.problems)")
        #expect(try #require(result.failure).message.contains("truncated"))
    }

    @Test func aGPXPointWithoutTimeOrWithBadNumbersIsOneBadRecord() {
        let text = """
            <gpx><wpt lat="48.1" lon="11.5"/><trkpt lat="x" lon="11.5"><time>2024-03-01T08:00:00Z</time></trkpt>
            <trkpt lat="48.1" lon="11.5"><ele>high</ele><time>2024-03-01T08:00:00Z</time></trkpt></gpx>
            """
        let result = ImportHarness.read(text)
        // The point whose only fault is its <ele> is kept without it (issue 38 item 5).
        #expect(result.samples.count == 1 && result.samples.first?.altitude == nil)
        #expect(result.problems.map(\.position.record) == [0, 1, 2])
        #expect(result.problems[0].message.contains("has no <time>"))
        #expect(result.problems[2].message.contains("kept without it") && result.checkpoint.rejected == 2)
    }

    @Test func aHugeRecLineIsOneBadRecord() {
        let text =
            "2024-03-01T08:00:00Z\t*\t{\"_type\":\"location\",\"x\":\"" + String(repeating: "y", count: 2 << 20)
            + "\"}\n" + ImportSampleFile.text(.rec, records: 1)
        let result = ImportHarness.read(text, chunk: 1 << 16)
        #expect(result.samples.count == 1)
        #expect(result.problems.first?.message.contains("line 1") == true)
        #expect(result.problems.first?.message.contains("longer than 1 MiB") == true, "\(result.problems)")
    }

    @Test func aRecLineWithoutColumnsOrWithBrokenJSONIsOneBadRecord() {
        let text = "garbage\n2024-03-01T08:00:00Z\t*\t{\"_type\":\n" + ImportSampleFile.text(.rec, records: 1)
        let result = ImportHarness.read(text, format: .rec)
        #expect(result.samples.count == 1)
        #expect(result.problems.count == 2)
        #expect(result.problems[1].message.contains("line 2"))
    }
}
