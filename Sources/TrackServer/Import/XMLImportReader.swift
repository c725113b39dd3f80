import BackgroundCore
import LocationLog

/// Reads GPX 1.0/1.1 (`trkpt`, `rtept`, `wpt` with `time`, `ele`, `speed`, `course`), KML
/// (`gx:Track` `when`/`gx:coord` pairs, as Google's Location History KML writes them, and
/// `Placemark`s with a `Point` and a `TimeStamp`) and TCX (Garmin's Training Center XML, as Garmin
/// Connect and Strava export activities: `Trackpoint`s with `Time`, `Position` and
/// `AltitudeMeters`). Each point is one record; a TCX `Trackpoint` without a `Position` (heart
/// rate alone, indoors) is a record with no point.
struct XMLImportReader: ImportReader {
    var skipBefore = 0
    private var tokenizer = XMLTokenizer()
    private var recordCount = 0
    private(set) var sawGPX = false
    private(set) var sawKML = false
    private(set) var sawTCX = false

    /// The GPX point being read.
    private struct Point {
        var position: ImportPosition
        var latitude: String?
        var longitude: String?
        var fields: [String: String] = [:]
    }
    private var point: Point?
    private var leaf: String?

    /// KML: the open `gx:Track`'s times waiting for their `gx:coord`s, and the open Placemark.
    private var trackTimes: [Instant?] = []
    private var trackCoords = 0
    private var inTrack = false
    private var placemark: (byte: Int64, when: String?, coordinates: String?, inPoint: Bool)?
    private var lineStringAt: Int64?

    private static let leaves: Set<String> = [
        "ele", "time", "speed", "course", "when", "coord", "coordinates",
        // TCX
        "Time", "LatitudeDegrees", "LongitudeDegrees", "AltitudeMeters",
    ]

    private(set) var failure: ImportFailure?

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [ImportRecord] {
        guard failure == nil else { return [] }
        var records: [ImportRecord] = []
        var tokenizer = self.tokenizer
        self.tokenizer = XMLTokenizer()  // the local copy is then the only one: no copy on write
        do {
            try tokenizer.feed(chunk) { token throws(ImportFailure) in
                self.handle(token, into: &records)
                return self.leaf != nil
            }
        } catch {
            failure = error
        }
        self.tokenizer = tokenizer
        return records
    }

    mutating func finish() -> [ImportRecord] {
        guard failure == nil else { return [] }
        do {
            try tokenizer.finish()
        } catch {
            failure = error
        }
        return []
    }

    var formatName: String { sawTCX ? "TCX" : sawKML ? "KML" : "GPX" }
    var recordsRead: Int { recordCount }

    private mutating func handle(_ token: XMLTokenizer.Token, into records: inout [ImportRecord]) {
        switch token {
        case .start(let rawName, let attributes, let selfClosing, let byte):
            let name = String(decoding: rawName, as: UTF8.self)
            switch name {
            case "gpx": sawGPX = true
            case "kml": sawKML = true
            case "TrainingCenterDatabase": sawTCX = true
            case "Trackpoint":
                point = Point(position: nextPosition(byte), latitude: nil, longitude: nil)
                if selfClosing { emitTrackpoint(into: &records) }
            case "trkpt", "rtept", "wpt":
                point = Point(
                    position: nextPosition(byte), latitude: XMLTokenizer.attribute("lat", in: attributes),
                    longitude: XMLTokenizer.attribute("lon", in: attributes))
                if selfClosing { emitPoint(into: &records) }
            case "Track":
                inTrack = true
                trackTimes = []
                trackCoords = 0
            case "Placemark": placemark = (byte, nil, nil, false)
            case "Point": placemark?.inPoint = true
            case "LineString": lineStringAt = byte
            default: break
            }
            if Self.leaves.contains(name), !selfClosing {
                leaf = name
                if name == "coord", inTrack { trackCoordStart = byte }
            }
        case .text(let bytes):
            guard let leaf else { return }
            let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
            if point != nil {
                point?.fields[leaf] = text
            } else if inTrack, leaf == "when" {
                trackTimes.append(Instant(iso8601: text))
            } else if inTrack, leaf == "coord" {
                emitTrackCoord(text, into: &records)
            } else if placemark != nil, leaf == "when" {
                placemark?.when = text
            } else if let current = placemark, current.inPoint, leaf == "coordinates" {
                placemark?.coordinates = text
            }
        case .end(let rawName):
            let name = String(decoding: rawName, as: UTF8.self)
            if name == leaf {
                leaf = nil
            }
            switch name {
            case "trkpt", "rtept", "wpt": emitPoint(into: &records)
            case "Trackpoint": emitTrackpoint(into: &records)
            case "Track": inTrack = false
            case "Placemark": emitPlacemark(into: &records)
            case "Point": placemark?.inPoint = false
            case "LineString":
                if let byte = lineStringAt, !inTrack {
                    let position = nextPosition(byte)
                    if position.record >= skipBefore {
                        records.append(
                            ImportRecord(
                                position: position,
                                outcome: .failure(
                                    SampleProblem(
                                        message: "is a KML LineString, which has no times; only gx:Track and "
                                            + "Placemarks with a Point and a TimeStamp can become a track"))))
                    }
                }
                lineStringAt = nil
            default: break
            }
        }
    }

    private var trackCoordStart: Int64 = 0

    private mutating func nextPosition(_ byte: Int64) -> ImportPosition {
        defer { recordCount += 1 }
        return ImportPosition(record: recordCount, byte: byte)
    }

    /// A TCX `Trackpoint`, read as the GPX point it is: its `Position` the point's, `Time` its
    /// time, `AltitudeMeters` its elevation.
    private mutating func emitTrackpoint(into records: inout [ImportRecord]) {
        guard var trackpoint = point else { return }
        let fields = trackpoint.fields
        guard fields["LatitudeDegrees"] != nil || fields["LongitudeDegrees"] != nil else {
            point = nil
            if trackpoint.position.record >= skipBefore {
                records.append(ImportRecord(position: trackpoint.position, outcome: .success([])))
            }
            return
        }
        let latitude = fields["LatitudeDegrees"] ?? ""
        let longitude = fields["LongitudeDegrees"] ?? ""
        guard Double(latitude) != nil, Double(longitude) != nil else {
            point = nil
            if trackpoint.position.record >= skipBefore {
                let problem = SampleProblem(
                    message: "<LatitudeDegrees> \"\(latitude.prefix(40))\" or <LongitudeDegrees> "
                        + "\"\(longitude.prefix(40))\" is missing or not a number")
                records.append(ImportRecord(position: trackpoint.position, outcome: .failure(problem)))
            }
            return
        }
        trackpoint.latitude = latitude
        trackpoint.longitude = longitude
        trackpoint.fields = ["time": fields["Time"], "ele": fields["AltitudeMeters"]].compactMapValues { $0 }
        point = trackpoint
        emitPoint(into: &records)
    }

    private mutating func emitPoint(into records: inout [ImportRecord]) {
        guard let point else { return }
        self.point = nil
        guard point.position.record >= skipBefore else { return }
        var notes: [String] = []
        let outcome = Self.gpxSample(point, notes: &notes)
        records.append(ImportRecord(position: point.position, outcome: outcome, notes: notes))
    }

    /// The point of a `trkpt`, `rtept` or `wpt`: refused without a position or a time; an `ele`,
    /// `speed` or `course` that is no number is left out with a note, and the point kept.
    private static func gpxSample(_ point: Point, notes: inout [String]) -> Result<[TrackSample], SampleProblem> {
        guard let latitude = point.latitude.flatMap(Double.init), latitude.isFinite else {
            return .failure(SampleProblem(message: "attribute \"lat\" is missing or not a number"))
        }
        guard let longitude = point.longitude.flatMap(Double.init), longitude.isFinite else {
            return .failure(SampleProblem(message: "attribute \"lon\" is missing or not a number"))
        }
        guard let text = point.fields["time"] else {
            return .failure(SampleProblem(message: "has no <time>; a track point needs its time"))
        }
        guard let time = Instant(iso8601: text) else {
            return .failure(SampleProblem(message: "<time> \"\(text.prefix(40))\" is not an ISO-8601 time"))
        }
        var numbers: [String: Double] = [:]
        for name in ["ele", "speed", "course"] {
            guard let text = point.fields[name] else { continue }
            guard let value = Double(text), value.isFinite else {
                notes.append("<\(name)> \"\(text.prefix(40))\" is not a number; the point is kept without it")
                continue
            }
            numbers[name] = value
        }
        return .success([
            .imported(
                time: time, latitude: latitude, longitude: longitude, altitude: numbers["ele"], speed: numbers["speed"],
                course: numbers["course"])
        ])
    }

    private mutating func emitTrackCoord(_ text: String, into records: inout [ImportRecord]) {
        let index = trackCoords
        trackCoords += 1
        let position = nextPosition(trackCoordStart)
        guard position.record >= skipBefore else { return }
        let outcome: Result<[TrackSample], SampleProblem>
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { Double($0) }
        if index >= trackTimes.count {
            outcome = .failure(SampleProblem(message: "gx:coord \(index + 1) of its gx:Track has no <when>"))
        } else if let time = trackTimes[index] {
            if numbers.count >= 2, let longitude = numbers[0], let latitude = numbers[1], longitude.isFinite,
                latitude.isFinite
            {
                let altitude = numbers.count > 2 ? numbers[2] : nil
                outcome = .success([.imported(time: time, latitude: latitude, longitude: longitude, altitude: altitude)]
                )
            } else {
                outcome = .failure(
                    SampleProblem(message: "gx:coord \"\(text.prefix(40))\" is not \"longitude latitude [altitude]\""))
            }
        } else {
            outcome = .failure(SampleProblem(message: "the <when> of gx:coord \(index + 1) is not an ISO-8601 time"))
        }
        records.append(ImportRecord(position: position, outcome: outcome))
    }

    private mutating func emitPlacemark(into records: inout [ImportRecord]) {
        guard let current = placemark else { return }
        placemark = nil
        guard let coordinates = current.coordinates else { return }  // not a Point placemark
        let position = nextPosition(current.byte)
        guard position.record >= skipBefore else { return }
        let numbers = coordinates.split(separator: ",").map { Double($0.trimmingWhitespace) }
        guard numbers.count >= 2, let longitude = numbers[0], let latitude = numbers[1], longitude.isFinite,
            latitude.isFinite
        else {
            records.append(
                ImportRecord(
                    position: position,
                    outcome: .failure(
                        SampleProblem(message: "<coordinates> \"\(coordinates.prefix(40))\" is not \"lon,lat[,alt]\"")))
            )
            return
        }
        guard let when = current.when, let time = Instant(iso8601: when) else {
            records.append(
                ImportRecord(
                    position: position,
                    outcome: .failure(SampleProblem(message: "the Placemark has no <TimeStamp><when> ISO-8601 time"))))
            return
        }
        let altitude = numbers.count > 2 ? numbers[2] : nil
        records.append(
            ImportRecord(
                position: position,
                outcome: .success([.imported(time: time, latitude: latitude, longitude: longitude, altitude: altitude)])
            ))
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends (no Foundation needed).
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
