import BackgroundCore
import Foundation

/// Track exports: GeoJSON, GPX 1.1 and CSV. Each takes the track already cut into segments
/// (see `Gaps.segments`), so a gap is a break in every format.
///
/// ```swift
/// let segments = Gaps.segments(of: points, maximumGap: .seconds(360))
/// let gpx = TrackExport.gpx(segments, name: "iphone-42 2024-11-22")
/// ```
public enum TrackExport {
    /// A GeoJSON FeatureCollection: one `MultiLineString` feature (one line per segment of two or
    /// more points) and, when `includePoints` is set, one `Point` feature per sample with `time`
    /// and `accuracy` properties for the map's hover labels. Coordinates are `[lon, lat]`.
    ///
    /// A segment of a single point is no line: RFC 7946 §3.1.4 asks for two or more positions in a
    /// LineString, so such a segment is a `Point` feature (`"segment"` its index) and never part
    /// of the `MultiLineString`.
    public static func geoJSON(_ segments: [[TrackPoint]], includePoints: Bool = true) -> String {
        var out = geoJSONHead(segmentCount: segments.count)
        out += segments.filter { $0.count >= 2 }.map { segment in
            "[" + segment.map(geoJSONPosition).joined(separator: ",") + "]"
        }.joined(separator: ",")
        out += "]}}"
        if !includePoints {
            for (index, segment) in segments.enumerated() where segment.count == 1 {
                out += #",{"type":"Feature","geometry":{"type":"Point","coordinates":["#
                out += "\(number(segment[0].longitude)),\(number(segment[0].latitude))]},"
                out += #""properties":{"segment":\#(index),"time":"\#(segment[0].time.iso8601)"}}"#
            }
        }
        if includePoints {
            for point in segments.joined() { appendGeoJSONPointFeature(point, to: &out) }
        }
        out += "]}"
        return out
    }

    /// A GPX 1.1 document with one `trk` whose `trkseg`s are the segments.
    public static func gpx(_ segments: [[TrackPoint]], name: String) -> String {
        var out = gpxHead(name: name)
        for segment in segments {
            out += "<trkseg>\n"
            for point in segment { appendGPXPoint(point, to: &out) }
            out += "</trkseg>\n"
        }
        out += gpxTail
        return out
    }

    /// CSV with a header; empty cells for unknown values. `segment` numbers the segments from 0.
    public static let csvHeader = "time,t_ms,segment,lat,lon,accuracy,altitude,speed,course"

    public static func csv(_ segments: [[TrackPoint]]) -> String {
        var out = csvHeader + "\n"
        for (index, segment) in segments.enumerated() {
            for point in segment { appendCSVLine(point, segment: index, to: &out) }
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
    package static func geoJSONPosition(_ point: TrackPoint) -> String {
        "[\(number(point.longitude)),\(number(point.latitude))]"
    }

    /// `,` and one `Point` feature with the hover properties.
    package static func appendGeoJSONPointFeature(_ point: TrackPoint, to out: inout String) {
        out += #",{"type":"Feature","geometry":{"type":"Point","coordinates":["#
        out += "\(number(point.longitude)),\(number(point.latitude))]},"
        out += #""properties":{"time":"\#(point.time.iso8601)""#
        if let accuracy = point.accuracy { out += #","accuracy":\#(number(accuracy))"# }
        if let altitude = point.altitude { out += #","altitude":\#(number(altitude))"# }
        if let speed = point.speed { out += #","speed":\#(number(speed))"# }
        out += "}}"
    }

    /// The GPX document up to its first `trkseg`.
    package static func gpxHead(name: String, before elements: String = "") -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<gpx version="1.1" creator="BackgroundTracker" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
            + elements + "<trk><name>\(xmlEscaped(name))</name>\n"
    }

    package static let gpxTail = "</trk>\n</gpx>\n"

    /// One `trkpt` line.
    package static func appendGPXPoint(_ point: TrackPoint, to out: inout String) {
        out += #"<trkpt lat="\#(number(point.latitude))" lon="\#(number(point.longitude))">"#
        if let altitude = point.altitude { out += "<ele>\(number(altitude))</ele>" }
        out += "<time>\(point.time.iso8601)</time>"
        out += "</trkpt>\n"
    }

    /// One CSV line of segment `segment`.
    package static func appendCSVLine(_ point: TrackPoint, segment: Int, to out: inout String) {
        let optionals = [point.accuracy, point.altitude, point.speed, point.course].map { $0.map(number) ?? "" }
        out += "\(point.time.iso8601),\(point.time.milliseconds),\(segment),"
        out += "\(number(point.latitude)),\(number(point.longitude)),"
        out += optionals.joined(separator: ",") + "\n"
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        // `String(Double)` switches to exponent form below 1e-4, which GPX's xsd:decimal forbids.
        if abs(value) < 1e-4 { return String(format: "%.9f", value) }
        return String(value)
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
