import BackgroundCore
import LocationLog
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

    /// Every measurement with a rule is dropped alone when out of range, the vertical accuracy
    /// too (the import named five measurements by hand and refused such a point whole).
    @Test func aPointWithABadVerticalAccuracyIsKeptWithoutIt() {
        let text = """
            2024-03-01T08:00:00Z\t*                 \t{"_type":"location","tst":1709280000,"lat":48.1,"lon":11.5,"acc":8,"vac":2000000}
            2024-03-01T08:02:00Z\t*                 \t{"_type":"location","tst":1709280120,"lat":48.2,"lon":11.6,"acc":8,"vac":4}

            """
        let result = ImportHarness.read(text)
        #expect(result.samples.map(\.verticalAccuracy) == [nil, 4])
        #expect(result.samples.map(\.accuracy) == [8, 8])
        #expect(result.checkpoint.rejected == 0 && result.checkpoint.points == 2)
        let messages = result.problems.map(\.message)
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.contains("vertical accuracy 2000000.0 m is outside 0…1000000") == true, "\(messages)")
        #expect(messages.first?.hasSuffix("the point is kept without it") == true, "\(messages)")
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

    /// A gzip file or an empty zip is named, not answered with formats to pick; a zip with entries
    /// is a format of its own (``ZipImportTests``).
    @Test func archivesAreNamed() {
        #expect(ImportFormat.detect(head: [0x50, 0x4B, 0x03, 0x04, 0x14, 0]) == .zip)
        let zip = ImportFormat.undetected(head: [0x50, 0x4B, 0x05, 0x06, 0, 0], hint: "?format=")
        #expect(zip.contains("empty zip archive") && !zip.contains("?format="))
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

/// TCX (Garmin, Strava) and GeoLife's `.plt` join the import formats (issue 38 item 5).
@Suite("Imports: TCX and GeoLife .plt")
struct ImportTCXAndPLTTests {
    @Test func tcxTrackpointsArePointsAndOnesWithoutAPositionAreNone() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Running"><Id>2024-05-01T10:00:00Z</Id><Lap StartTime="2024-05-01T10:00:00Z">
            <Track>
            <Trackpoint><Time>2024-05-01T10:00:00Z</Time><Position><LatitudeDegrees>48.1</LatitudeDegrees>
            <LongitudeDegrees>11.5</LongitudeDegrees></Position><AltitudeMeters>520.4</AltitudeMeters>
            <HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>
            <Trackpoint><Time>2024-05-01T10:00:05Z</Time><HeartRateBpm><Value>121</Value></HeartRateBpm></Trackpoint>
            <Trackpoint><Time>2024-05-01T10:00:10Z</Time><Position><LatitudeDegrees>48.1001</LatitudeDegrees>
            <LongitudeDegrees>11.5002</LongitudeDegrees></Position></Trackpoint>
            <Trackpoint><Time>2024-05-01T10:00:15Z</Time><Position><LatitudeDegrees>north</LatitudeDegrees>
            <LongitudeDegrees>11.5</LongitudeDegrees></Position></Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        for chunk in [1, 17, 4096] {
            let result = ImportHarness.read(text, chunk: chunk)
            #expect(result.formatName == "TCX")
            #expect(result.failure == nil)
            #expect(result.samples.map(\.latitude) == [48.1, 48.1001], "chunks of \(chunk)")
            #expect(result.samples.first?.altitude == 520.4)
            #expect(result.samples.last?.time == Instant(iso8601: "2024-05-01T10:00:10Z"))
            #expect(result.problems.map(\.position.record) == [3], "\(result.problems)")
            #expect(result.problems.first?.message.contains(#"<LatitudeDegrees> "north""#) == true)
        }
        #expect(ImportFormat(name: "tcx") == .xml)
    }

    @Test func geoLifePLTLinesArePointsWithAltitudeInMetres() {
        let text = """
            Geolife trajectory\r
            WGS 84\r
            Altitude is in Feet\r
            Reserved 3\r
            0,2,255,My Track,0,0,2,8421376\r
            0\r
            39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04\r
            39.984683,116.31845,0,-777,39744.1202546296,2008-10-23,02:53:10\r
            39.98,116.31,0,492,39744.12,2008-10-23\r
            91.5,116.31,0,492,39744.12,2008-10-23,02:53:20\r

            """
        for chunk in [1, 9, 4096] {
            let result = ImportHarness.read(text, chunk: chunk)
            #expect(result.formatName == "GeoLife .plt")
            #expect(result.samples.count == 2, "chunks of \(chunk): \(result.problems)")
            #expect(result.samples.first?.time == Instant(iso8601: "2008-10-23T02:53:04Z"))
            let metres = result.samples.first?.altitude ?? 0
            #expect(abs(metres - 149.96) < 0.01, "\(metres)")
            #expect(result.samples.last?.altitude == nil)
            // The short line and the latitude out of range, each with its line.
            #expect(result.problems.map(\.position.line) == [9, 10], "\(result.problems)")
            #expect(result.problems.first?.message.contains("not the 7 of a .plt line") == true)
        }
        #expect(ImportFormat.detect(head: Array(text.utf8.prefix(64))) == .plt)
        #expect(ImportFormat(name: "geolife") == .plt)
    }
}
