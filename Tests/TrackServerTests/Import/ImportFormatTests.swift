import BackgroundCore
import LocationLog
import Testing
import TrackServer

/// Every import format read from a generated file, whatever the chunk boundaries: the points, their
/// values and the format named.
@Suite struct ImportFormatTests {
    @Test(arguments: ImportSampleFile.Kind.allCases, [1, 13, 4096])
    func everyFormatYieldsEveryPointAtAnyChunkSize(kind: ImportSampleFile.Kind, chunk: Int) throws {
        let records = 25
        let text = ImportSampleFile.text(kind, records: records)
        let result = ImportHarness.read(text, chunk: chunk)
        #expect(result.failure == nil, "\(String(describing: result.failure))")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let perRecord = kind == .timeline || kind == .timelineIOS ? 10 : 1
        #expect(result.samples.count == records * perRecord)
        #expect(result.checkpoint.finished)
        // The walk starts 2000-01-02 + 2 min, near Munich, one point every 2 minutes.
        let first = try #require(result.samples.first)
        #expect(first.time == Instant(milliseconds: 946_771_200_000 + 120_000))
        #expect(abs(first.latitude - 48.137) < 0.001 && abs(first.longitude - 11.575) < 0.001)
        #expect(first.source == .imported)
        #expect(
            first.key
                == TrackSample.positionKey(time: first.time, latitude: first.latitude, longitude: first.longitude))
        let times = result.samples.map(\.time.milliseconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 120_000 })
    }

    @Test func theFormatIsNamedFromWhatTheFileHolds() {
        #expect(
            ImportHarness.read(ImportSampleFile.text(.takeoutRecords, records: 2)).formatName
                == "Google Takeout Records.json")
        #expect(ImportHarness.read(ImportSampleFile.text(.timeline, records: 2)).formatName == "Google Timeline export")
        #expect(
            ImportHarness.read(ImportSampleFile.text(.timelineIOS, records: 2)).formatName
                == "Google Timeline export (iOS)")
        #expect(ImportHarness.read(ImportSampleFile.text(.geojson, records: 2)).formatName == "GeoJSON")
        #expect(ImportHarness.read(ImportSampleFile.text(.gpx, records: 2)).formatName == "GPX")
        #expect(ImportHarness.read(ImportSampleFile.text(.kml, records: 2)).formatName == "KML")
        #expect(ImportHarness.read(ImportSampleFile.text(.rec, records: 2)).formatName == "OwnTracks .rec")
    }

    @Test func legacyTimestampMsAndUnsignedE7AreRead() throws {
        let text = """
            {"locations":[{"latitudeE7":4294067296,"longitudeE7":115000000,"timestampMs":"1600000000000","accuracy":12,
            "velocity":3,"heading":90,"altitude":500}]}
            """
        let sample = try #require(ImportHarness.read(text).samples.first)
        #expect(sample.latitude == -0.09 && sample.longitude == 11.5)
        #expect(sample.time == Instant(milliseconds: 1_600_000_000_000))
        #expect(sample.accuracy == 12 && sample.speed == 3 && sample.course == 90 && sample.altitude == 500)
    }

    @Test func timelineVisitsActivitiesAndRawSignalsArePoints() {
        let text = """
            {"semanticSegments":[
              {"startTime":"2024-03-01T08:00:00.000+01:00","endTime":"2024-03-01T09:00:00.000+01:00",
               "visit":{"hierarchyLevel":0,"topCandidate":{"placeId":"x","placeLocation":{"latLng":"48.1°, 11.5°"}}}},
              {"startTime":"2024-03-01T09:00:00.000+01:00","endTime":"2024-03-01T09:30:00.000+01:00",
               "activity":{"start":{"latLng":"48.1°, 11.5°"},"end":{"latLng":"48.2°, 11.6°"},"distanceMeters":900}}],
             "rawSignals":[{"position":{"LatLng":"48.3°, 11.7°","accuracyMeters":9,"altitudeMeters":510.5,
               "source":"GPS","timestamp":"2024-03-01T10:00:00.000+01:00","speedMetersPerSecond":1.5}},
               {"wifiScan":{"deliveryTime":"2024-03-01T10:00:00.000+01:00","devicesRecords":[]}}],
             "userLocationProfile":{"frequentPlaces":[{"placeLocation":"48.1°, 11.5°"}]}}
            """
        let result = ImportHarness.read(text)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.samples.map(\.latitude) == [48.1, 48.1, 48.2, 48.3])
        #expect(result.samples.first?.time == Instant(iso8601: "2024-03-01T07:00:00Z"))
        #expect(result.samples.last?.accuracy == 9)
        #expect(result.samples.last?.speed == 1.5)
    }

    @Test func geoJSONLinesWithCoordTimesArePoints() {
        let text = """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"coordTimes":
            ["2024-03-01T08:00:00Z","2024-03-01T08:02:00Z"]},"geometry":{"type":"LineString",
            "coordinates":[[11.5,48.1,500],[11.6,48.2,510]]}},
            {"type":"Feature","properties":{"timestamp":1709280000},"geometry":{"type":"Point","coordinates":[11.7,48.3]}}]}
            """
        let result = ImportHarness.read(text)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.samples.map(\.longitude) == [11.5, 11.6, 11.7])
        #expect(result.samples[1].altitude == 510)
        #expect(result.samples[2].time == Instant(milliseconds: 1_709_280_000_000))
    }

    @Test func kmlPlacemarksWithATimeStampArePoints() {
        let text = """
            <?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><TimeStamp><when>2024-03-01T08:00:00Z</when></TimeStamp><Point><coordinates>11.5,48.1,500</coordinates></Point></Placemark>
            <Placemark><LineString><coordinates>11.5,48.1 11.6,48.2</coordinates></LineString></Placemark>
            </Document></kml>
            """
        let result = ImportHarness.read(text)
        #expect(result.samples.map(\.latitude) == [48.1])
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.message.contains("LineString, which has no times") == true)
    }

    @Test func recLinesOfOtherTypesAreNeitherPointsNorProblems() {
        let text = """
            2024-03-01T08:00:00Z\t*                 \t{"_type":"location","tst":1709280000,"lat":48.1,"lon":11.5,"vel":36,"batt":50}
            2024-03-01T08:01:00Z\towntracks/u/p     \t{"_type":"transition","event":"enter"}

            """
        let result = ImportHarness.read(text)
        #expect(result.problems.isEmpty)
        #expect(result.samples.count == 1)
        #expect(result.samples.first?.speed == 10)
        #expect(result.samples.first?.source == .imported)
    }
}
