import BackgroundCore
import LocationLog

/// Generated import files, never anyone's real history: a seeded random walk near Munich, one
/// point every 2 minutes from 2000-01-02, written in any import format. The benchmarks write
/// gigabyte files with it (`bgtrack-bench import-gen`), the tests small ones.
package struct ImportSampleFile {
    package enum Kind: String, CaseIterable, Sendable {
        case takeoutRecords = "takeout-records"
        case timeline
        case timelineIOS = "timeline-ios"
        case geojson, gpx, kml, rec
    }

    package var kind: Kind
    private var random: SeededRandom
    private var latitude = 48.137
    private var longitude = 11.575
    /// 2000-01-02: at one point every 2 minutes the walk reaches today only after 7 million points
    /// (a 1.4 GB Records.json), so no generated point is refused for being in the future.
    private var time = Instant(milliseconds: 946_771_200_000)
    private(set) package var points = 0

    package init(kind: Kind, seed: UInt64) {
        self.kind = kind
        random = SeededRandom(seed: seed)
    }

    /// The file's opening bytes.
    package var header: String {
        switch kind {
        case .takeoutRecords: "{\n  \"locations\": [\n"
        case .timeline: "{\n  \"semanticSegments\": [\n"
        case .timelineIOS: "[\n"
        case .geojson: "{\"type\":\"FeatureCollection\",\"features\":[\n"
        case .gpx:
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"bgtrack\" "
                + "xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><name>generated</name><trkseg>\n"
        case .kml:
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" "
                + "xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n<Document><Placemark><gx:Track>\n"
        case .rec: ""
        }
    }

    /// The file's closing bytes.
    package var footer: String {
        switch kind {
        case .takeoutRecords: "\n  ]\n}\n"
        case .timeline: "\n  ],\n  \"rawSignals\": [],\n  \"userLocationProfile\": {}\n}\n"
        case .timelineIOS: "\n]\n"
        case .geojson: "\n]}\n"
        case .gpx: "</trkseg></trk>\n</gpx>\n"
        case .kml: "</gx:Track></Placemark></Document>\n</kml>\n"
        case .rec: ""
        }
    }

    /// The next record (its separator included); a Timeline segment holds `pathLength` points.
    package mutating func nextRecord(pathLength: Int = 10) -> String {
        let separator = points == 0 || kind == .gpx || kind == .kml || kind == .rec ? "" : ",\n"
        switch kind {
        case .takeoutRecords:
            step()
            return separator + """
                    {
                      "latitudeE7": \(Int((latitude * 1e7).rounded())),
                      "longitudeE7": \(Int((longitude * 1e7).rounded())),
                      "accuracy": \(Int(random.uniform(5...40))),
                      "source": "WIFI",
                      "deviceTag": 1234567890,
                      "timestamp": "\(time.iso8601)"
                    }
                """
        case .timeline, .timelineIOS:
            let start = time
            var path: [String] = []
            for index in 0..<pathLength {
                step()
                path.append(
                    kind == .timeline
                        ? "{\"point\":\"\(format(latitude))°, \(format(longitude))°\",\"time\":\"\(time.iso8601)\"}"
                        : "{\"point\":\"geo:\(format(latitude)),\(format(longitude))\","
                            + "\"durationMinutesOffsetFromStartTime\":\"\(2 * (index + 1))\"}")
            }
            return separator
                + "{\"startTime\":\"\(start.iso8601)\",\"endTime\":\"\(time.iso8601)\",\"timelinePath\":[\(path.joined(separator: ","))]}"
        case .geojson:
            step()
            return separator
                + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(format(longitude)),\(format(latitude))]},"
                + "\"properties\":{\"time\":\"\(time.iso8601)\",\"accuracy\":\(Int(random.uniform(5...40)))}}"
        case .gpx:
            step()
            return
                "<trkpt lat=\"\(format(latitude))\" lon=\"\(format(longitude))\"><ele>\(Int(random.uniform(500...530)))</ele>"
                + "<time>\(time.iso8601)</time></trkpt>\n"
        case .kml:
            // gx:Track pairs each <when> with the gx:coord of the same rank; one pair a record here.
            step()
            return "<when>\(time.iso8601)</when><gx:coord>\(format(longitude)) \(format(latitude)) 520</gx:coord>\n"
        case .rec:
            step()
            let seconds = time.milliseconds / 1000
            return "\(time.iso8601.prefix(19))Z\t*                 \t{\"_type\":\"location\",\"tid\":\"ph\","
                + "\"tst\":\(seconds),\"lat\":\(format(latitude)),\"lon\":\(format(longitude)),"
                + "\"acc\":\(Int(random.uniform(5...40))),\"batt\":80}\n"
        }
    }

    private mutating func step() {
        latitude += random.uniform(-0.0005...0.0005)
        longitude += random.uniform(-0.0005...0.0005)
        time = time + .seconds(120)
        points += 1
    }

    private func format(_ degrees: Double) -> String {
        String((degrees * 1e7).rounded() / 1e7)
    }

    /// A whole small file of `records` records, for tests.
    package static func text(_ kind: Kind, records: Int, seed: UInt64 = 1) -> String {
        var file = ImportSampleFile(kind: kind, seed: seed)
        var out = file.header
        for _ in 0..<records { out += file.nextRecord() }
        return out + file.footer
    }
}
