public import BackgroundCore
import Foundation
import LocationLog

/// Track exports: GeoJSON, GPX 1.1 and CSV. Each takes the track already cut into segments
/// (see `Gaps.segments`), so a gap is a break in every format, and writes each time in UTC and,
/// beside it, in the local time ``ExportLocalTime`` gives (UTC itself unless told).
///
/// ```swift
/// let segments = Gaps.segments(of: points, maximumGap: .seconds(360))
/// let gpx = TrackExport.gpx(segments, name: "iphone-42 2024-11-22")
/// ```
public enum TrackExport {
    /// A GeoJSON FeatureCollection: one `MultiLineString` feature (one line per segment of two or
    /// more points) and, when `includePoints` is set, one `Point` feature per sample with `time`,
    /// `local_time`, `time_zone` and `accuracy` properties for the map's hover labels. Coordinates
    /// are `[lon, lat]`.
    ///
    /// A segment of a single point is no line: RFC 7946 §3.1.4 asks for two or more positions in a
    /// LineString, so such a segment is a `Point` feature (`"segment"` its index) and never part
    /// of the `MultiLineString`.
    public static func geoJSON(
        _ segments: [[SampleValues]], includePoints: Bool = true, localTime: ExportLocalTime = .utc
    ) -> String {
        var out = geoJSONHead(segmentCount: segments.count)
        out += segments.filter { $0.count >= 2 }.map { segment in
            "[" + segment.map(geoJSONPosition).joined(separator: ",") + "]"
        }.joined(separator: ",")
        out += "]}}"
        if !includePoints {
            for (index, segment) in segments.enumerated() where segment.count == 1 {
                out += #",{"type":"Feature","geometry":{"type":"Point","coordinates":["#
                out += "\(number(segment[0].longitude)),\(number(segment[0].latitude))]},"
                out += #""properties":{"segment":\#(index),"#
                appendGeoJSONTimes(segment[0].time, localTime, to: &out)
                out += "}}"
            }
        }
        if includePoints {
            for point in segments.joined() { appendGeoJSONPointFeature(point, localTime, to: &out) }
        }
        out += "]}"
        return out
    }

    /// A GPX 1.1 document with one `trk` whose `trkseg`s are the segments.
    public static func gpx(_ segments: [[SampleValues]], name: String, localTime: ExportLocalTime = .utc) -> String {
        var out = gpxHead(name: name)
        for segment in segments {
            out += "<trkseg>\n"
            for point in segment { appendGPXPoint(point, localTime, to: &out) }
            out += "</trkseg>\n"
        }
        out += gpxTail
        return out
    }

    /// CSV with a header; empty cells for unknown values. `segment` numbers the segments from 0;
    /// `time` is UTC, `local_time` the same instant with the offset of the zone in `time_zone`;
    /// `vertical_accuracy` (metres) came last, so readers of the older columns by position still work.
    public static let csvHeader =
        "time,t_ms,segment,lat,lon,accuracy,altitude,speed,course,local_time,time_zone,vertical_accuracy"

    public static func csv(_ segments: [[SampleValues]], localTime: ExportLocalTime = .utc) -> String {
        var out = csvHeader + "\n"
        for (index, segment) in segments.enumerated() {
            for point in segment { appendCSVLine(point, segment: index, localTime, to: &out) }
        }
        return out
    }

    // The pieces of each format, one point at a time: the whole-track functions above and the
    // server's streamed exports (which never hold a whole track) write the same bytes through them.

    /// GeoJSON up to the first line of the `MultiLineString`'s coordinates.
    package static func geoJSONHead(segmentCount: Int) -> String {
        #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"segments":\#(segmentCount)},"#
            + #""geometry":{"type":"MultiLineString","coordinates":["#
    }

    /// `[lon,lat]`, a position in a GeoJSON line.
    package static func geoJSONPosition(_ point: SampleValues) -> String {
        "[\(number(point.longitude)),\(number(point.latitude))]"
    }

    /// `,` and one `Point` feature with the hover properties.
    package static func appendGeoJSONPointFeature(
        _ point: SampleValues, _ localTime: ExportLocalTime, to out: inout String
    ) {
        out += #",{"type":"Feature","geometry":{"type":"Point","coordinates":["#
        out += "\(number(point.longitude)),\(number(point.latitude))]},"
        out += #""properties":{"#
        appendGeoJSONTimes(point.time, localTime, to: &out)
        if let accuracy = point.accuracy { out += #","accuracy":\#(number(accuracy))"# }
        if let altitude = point.altitude { out += #","altitude":\#(number(altitude))"# }
        if let vertical = point.verticalAccuracy { out += #","vertical_accuracy":\#(number(vertical))"# }
        if let speed = point.speed { out += #","speed":\#(number(speed))"# }
        out += "}}"
    }

    /// `"time":"…Z","local_time":"…+01:00","time_zone":"Europe/Berlin"`.
    static func appendGeoJSONTimes(_ time: Instant, _ localTime: ExportLocalTime, to out: inout String) {
        let local = localTime.local(time)
        out += #""time":"\#(time.iso8601)","local_time":"\#(local.time)","time_zone":"\#(jsonEscaped(local.zone))""#
    }

    /// The namespace of the GPX extension elements: `bgt:local_time` and `bgt:time_zone` carry a
    /// point's local time, `bgt:vacc` the vertical accuracy of its `ele` in metres (GPX 1.1 has
    /// only the unitless `vdop`); a reader that does not know them skips them, as GPX 1.1 provides.
    public static let gpxExtensionNamespace = "urn:backgroundtracker:gpx:1"

    /// The GPX document up to its first `trkseg`.
    package static func gpxHead(name: String, before elements: String = "") -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<gpx version="1.1" creator="BackgroundTracker" xmlns="http://www.topografix.com/GPX/1/1""#
            + #" xmlns:bgt="\#(gpxExtensionNamespace)">"# + "\n"
            + elements + "<trk><name>\(xmlEscaped(name))</name>\n"
    }

    package static let gpxTail = "</trk>\n</gpx>\n"

    /// One `trkpt` line: UTC in `<time>`, the local time in its `extensions`.
    package static func appendGPXPoint(_ point: SampleValues, _ localTime: ExportLocalTime, to out: inout String) {
        out += #"<trkpt lat="\#(number(point.latitude))" lon="\#(number(point.longitude))">"#
        if let altitude = point.altitude { out += "<ele>\(number(altitude))</ele>" }
        let local = localTime.local(point.time)
        out += "<time>\(point.time.iso8601)</time>"
        out += "<extensions><bgt:local_time>\(local.time)</bgt:local_time>"
        out += "<bgt:time_zone>\(xmlEscaped(local.zone))</bgt:time_zone>"
        if let vertical = point.verticalAccuracy { out += "<bgt:vacc>\(number(vertical))</bgt:vacc>" }
        out += "</extensions>"
        out += "</trkpt>\n"
    }

    /// One CSV line of segment `segment`.
    package static func appendCSVLine(
        _ point: SampleValues, segment: Int, _ localTime: ExportLocalTime, to out: inout String
    ) {
        let optionals = [point.accuracy, point.altitude, point.speed, point.course].map { $0.map(number) ?? "" }
        let local = localTime.local(point.time)
        out += "\(point.time.iso8601),\(point.time.milliseconds),\(segment),"
        out += "\(number(point.latitude)),\(number(point.longitude)),"
        // IANA names are letters, digits, `/`, `_`, `-` and `+`: nothing CSV needs to quote.
        out += optionals.joined(separator: ",") + ",\(local.time),\(local.zone),"
        out += (point.verticalAccuracy.map(number) ?? "") + "\n"
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        // `String(Double)` switches to exponent form below 1e-4, which GPX's xsd:decimal forbids.
        if abs(value) < 1e-4 { return String(format: "%.9f", value) }
        return String(value)
    }

    /// Escapes text for a JSON string: quotes, backslashes and control characters.
    static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Escapes text for XML and HTML (element content and quoted attributes).
    public static func xmlEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
