import BackgroundCore
import Testing
import TrackServer

/// Import errors name the actual problem and a remedy that exists (issue 38 item 5), and a point
/// whose only fault is a measurement is kept without it.
@Suite("Imports: messages that say what is wrong, points kept without a bad measurement")
struct ImportMessageTests {
    static func gpx(_ points: String) -> String {
        #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            + points + "</trkseg></trk></gpx>"
    }

    /// A GPX point with an `<ele>` that is no number, or out of range, is kept without it and the
    /// note says so; it is not counted as refused.
    @Test func aPointWithABadElevationIsKeptWithoutIt() {
        let text = Self.gpx(
            #"<trkpt lat="48.1" lon="11.5"><ele>n/a</ele><time>2024-05-01T10:00:00Z</time></trkpt>"#
                + #"<trkpt lat="48.2" lon="11.6"><ele>250000</ele><time>2024-05-01T10:02:00Z</time></trkpt>"#
                + #"<trkpt lat="48.3" lon="11.7"><ele>520</ele><time>2024-05-01T10:04:00Z</time></trkpt>"#)
        let result = ImportHarness.read(text)
        #expect(result.samples.count == 3)
        #expect(result.samples.map(\.altitude) == [nil, nil, 520])
        #expect(result.checkpoint.rejected == 0 && result.checkpoint.points == 3)
        let messages = result.problems.map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.first?.contains(#"<ele> "n/a" is not a number; the point is kept without it"#) == true)
        #expect(messages.last?.contains("altitude 250000.0 m is outside") == true)
        #expect(messages.last?.hasSuffix("the point is kept without it") == true, "\(messages)")
    }

    /// An old point is history, not a phone with a wrong clock.
    @Test func anOldPointIsNotBlamedOnAPhonesClock() {
        let text = Self.gpx(#"<trkpt lat="48.1" lon="11.5"><time>1998-05-01T10:00:00Z</time></trkpt>"#)
        let result = ImportHarness.read(text)
        #expect(result.samples.isEmpty && result.checkpoint.rejected == 1)
        let message = result.problems.first?.message ?? ""
        #expect(
            message.contains("time 1998-05-01T10:00:00.000Z is before 2000-01-01, the earliest time the server keeps"))
        #expect(!message.contains("phone"), "\(message)")
    }

    /// An attribute's quote never closed is damage, not a truncated file.
    @Test func anUnclosedQuoteIsNotCalledTruncated() {
        let text = Self.gpx(
            #"<trkpt lat="48.1" lon="11.5"><time>2024-05-01T10:00:00Z</time></trkpt>"#
                + #"<trkpt lat="48.2 lon="11.6"><time>2024-05-01T10:02:00Z</time></trkpt>"#)
        let result = ImportHarness.read(text)
        #expect(result.samples.count == 1)
        let message = result.failure?.message ?? ""
        #expect(message.contains("never closes it: the file is damaged there (not cut short)"), "\(message)")
        #expect(!message.contains("truncated"), "\(message)")
        // A file really cut short, even inside an attribute, is still called so.
        let cut = ImportHarness.read(
            #"<?xml version="1.0"?><gpx version="1.1"><trk><trkseg><trkpt lat="48.1" lon="11"#)
        #expect(cut.failure?.message.contains("truncated") == true, "\(cut.failure?.message ?? "")")
    }

    /// A zip archive (a Takeout download) or a gzip file is named, not answered with formats to pick.
    @Test func archivesAreNamed() {
        let zip = ImportFormat.undetected(head: [0x50, 0x4B, 0x03, 0x04, 0x14, 0], hint: "?format=")
        #expect(zip.contains("zip archive") && zip.contains("unzip it") && !zip.contains("?format="))
        let gzip = ImportFormat.undetected(head: [0x1F, 0x8B, 0x08], hint: "--format")
        #expect(gzip.contains("gunzip"))
        let other = ImportFormat.undetected(head: Array("hello".utf8), hint: "--format")
        #expect(other.contains("--format") && other.contains("gpx"))
    }

    /// A JSON record over 8 MiB is skipped with a message offering no limit that cannot be raised.
    @Test func aHugeJSONRecordIsSkippedWithoutPromisingALimit() {
        let huge =
            "{\"locations\":[{\"note\":\"" + String(repeating: "x", count: 9 << 20) + "\"},"
            + #"{"latitudeE7":481000000,"longitudeE7":115000000,"timestamp":"2024-05-01T10:00:00Z"}]}"#
        let result = ImportHarness.read(huge, chunk: 1 << 20)
        #expect(result.samples.count == 1)
        let message = result.problems.first?.message ?? ""
        #expect(message.contains("larger than 8 MiB") && !message.contains("raise"), "\(message)")
    }
}
