import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackGeometry

/// The exports write each time in UTC and, beside it, in the local time of the zone given, with
/// daylight saving and odd offsets (issue 37 item 2).
@Suite("Exports: local times beside UTC")
struct ExportLocalTimeTests {
    static func point(_ iso: String) throws -> SampleValues {
        SampleValues(time: try #require(Instant(iso8601: iso)), latitude: 52.52, longitude: 13.405)
    }

    static func zone(_ name: String) throws -> ExportLocalTime {
        ExportLocalTime(zone: try #require(TimeZone(identifier: name)))
    }

    /// Berlin's spring-forward night (2024-03-31, 02:00 CET becomes 03:00 CEST): the hour before
    /// and the hour after the change are an hour apart in UTC and two on the local clock.
    @Test func berlinAcrossItsSpringChange() throws {
        let segments = [[try Self.point("2024-03-31T00:30:00Z"), try Self.point("2024-03-31T01:30:00Z")]]
        let csv = TrackExport.csv(segments, localTime: try Self.zone("Europe/Berlin")).split(separator: "\n")
        #expect(csv[1].hasSuffix(",2024-03-31T01:30:00.000+01:00,Europe/Berlin,"), "\(csv[1])")
        #expect(csv[2].hasSuffix(",2024-03-31T03:30:00.000+02:00,Europe/Berlin,"), "\(csv[2])")
    }

    /// New York's fall-back night (2024-11-03): 01:30 happens twice, told apart by the offset.
    @Test func newYorkItsRepeatedHourHasTwoOffsets() throws {
        let segments = [[try Self.point("2024-11-03T05:30:00Z"), try Self.point("2024-11-03T06:30:00Z")]]
        let gpx = TrackExport.gpx(segments, name: "ny", localTime: try Self.zone("America/New_York"))
        #expect(gpx.contains("<bgt:local_time>2024-11-03T01:30:00.000-04:00</bgt:local_time>"), "\(gpx)")
        #expect(gpx.contains("<bgt:local_time>2024-11-03T01:30:00.000-05:00</bgt:local_time>"), "\(gpx)")
        #expect(gpx.contains(#"xmlns:bgt="urn:backgroundtracker:gpx:1""#))
        // UTC stays in <time>, as GPX 1.1 asks.
        #expect(gpx.contains("<time>2024-11-03T05:30:00.000Z</time>"))
    }

    /// Kathmandu is 5 h 45 min ahead; every local time read back is the same instant.
    @Test func kathmanduAndEveryLocalTimeReadsBackAsTheSameInstant() throws {
        let times = ["2024-06-01T00:00:00Z", "2024-12-31T18:15:00Z", "1985-06-01T00:00:00Z"]
        let segments = [try times.map(Self.point)]
        let geo = TrackExport.geoJSON(segments, localTime: try Self.zone("Asia/Kathmandu"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(geo.utf8)) as? [String: Any])
        let features = try #require(object["features"] as? [[String: Any]])
        let properties = features.dropFirst().compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.count == 3)
        #expect(properties[0]["local_time"] as? String == "2024-06-01T05:45:00.000+05:45")
        #expect(properties[1]["local_time"] as? String == "2025-01-01T00:00:00.000+05:45")
        // Before 1986 Nepal was 5 h 30 min ahead.
        #expect(properties[2]["local_time"] as? String == "1985-06-01T05:30:00.000+05:30")
        for (property, time) in zip(properties, times) {
            let local = try #require(property["local_time"] as? String)
            #expect(Instant(iso8601: local) == Instant(iso8601: time), "\(local) is not \(time)")
            #expect(property["time_zone"] as? String == "Asia/Kathmandu")
        }
    }

    /// Negative offsets, and instants before 1970, format as the reader reads them.
    @Test func offsetsRoundTripThroughTheReader() throws {
        for offset in [-12 * 3600, -9 * 3600 - 30 * 60, -60, 0, 60, 5 * 3600 + 45 * 60, 14 * 3600] {
            for milliseconds: Int64 in [-86_400_001, 0, 1_711_848_600_123] {
                let instant = Instant(milliseconds: milliseconds)
                let text = instant.iso8601(offsetSeconds: offset)
                #expect(Instant(iso8601: text) == instant, "\(text)")
            }
        }
        #expect(Instant(milliseconds: 0).iso8601(offsetSeconds: -3600) == "1969-12-31T23:00:00.000-01:00")
    }
}
