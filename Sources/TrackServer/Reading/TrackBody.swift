import BackgroundCore
import Hummingbird
import LocationLog
import NIOCore
import TrackGeometry

/// The streamed body of `GET /v1/devices/{id}/track`: the same bytes as ``TrackExport`` and the
/// polyline answer built whole, written in pieces of about `flushBytes` as ``TrackReader`` reads
/// the range, so a long export never holds more than a page, a window and a piece.
struct TrackBody: Sendable {
    var reader: TrackReader
    var format: TrackQuery.Format
    /// The GPX track's name.
    var name: String
    /// GeoJSON's header counts the segments before any line: asked of the store beforehand.
    var segmentCount: Int
    var flushBytes = 64 << 10
    /// The stays, trips and gaps of the range (GeoJSON and GPX include them; see ``TimelineExport``).
    var timeline: [TimelineEntry] = []
    /// The local time written beside each UTC time: the zones the device was in.
    var localTime = ExportLocalTime.utc

    /// Writes the whole body and finishes it.
    func write(to writer: inout any ResponseBodyWriter) async throws {
        var out = Output(flushBytes: flushBytes)
        switch format {
        case .geojson: try await geoJSON(&out, &writer)
        case .gpx: try await gpx(&out, &writer)
        case .csv: try await csv(&out, &writer)
        case .polyline: try await polyline(&out, &writer)
        }
        try await out.flush(&writer)
        try await writer.finish(nil)
    }

    /// One `MultiLineString` of the segments of two or more points, then a `Point` feature per
    /// point: two passes over the range, as the document puts every line before every point.
    private func geoJSON(_ out: inout Output, _ writer: inout any ResponseBodyWriter) async throws {
        out.text += TrackExport.geoJSONHead(segmentCount: segmentCount)
        var segment = -1
        var first: SampleValues?  // a segment's first point, written once a second shows it is a line
        var inLine = false
        var lines = 0
        try await reader.read { run in
            for point in run.points {
                if run.segment != segment {
                    if inLine { out.text += "]" }
                    segment = run.segment
                    first = point
                    inLine = false
                    continue
                }
                if let start = first {
                    out.text += (lines > 0 ? ",[" : "[") + TrackExport.geoJSONPosition(start)
                    first = nil
                    inLine = true
                    lines += 1
                }
                out.text += "," + TrackExport.geoJSONPosition(point)
            }
            try await out.flushIfFull(&writer)
        }
        if inLine { out.text += "]" }
        out.text += "]}}"
        try await reader.read { run in
            for point in run.points { TrackExport.appendGeoJSONPointFeature(point, localTime, to: &out.text) }
            try await out.flushIfFull(&writer)
        }
        out.text += TimelineExport.geoJSONFeatures(timeline, localTime: localTime)
        out.text += "]}"
    }

    private func gpx(_ out: inout Output, _ writer: inout any ResponseBodyWriter) async throws {
        out.text += TrackExport.gpxHead(name: name, before: TimelineExport.gpxElements(timeline, localTime: localTime))
        var segment = -1
        try await reader.read { run in
            if run.segment != segment {
                if segment >= 0 { out.text += "</trkseg>\n" }
                out.text += "<trkseg>\n"
                segment = run.segment
            }
            for point in run.points { TrackExport.appendGPXPoint(point, localTime, to: &out.text) }
            try await out.flushIfFull(&writer)
        }
        if segment >= 0 { out.text += "</trkseg>\n" }
        out.text += TrackExport.gpxTail
    }

    private func csv(_ out: inout Output, _ writer: inout any ResponseBodyWriter) async throws {
        out.text += TrackExport.csvHeader + "\n"
        try await reader.read { run in
            for point in run.points { TrackExport.appendCSVLine(point, segment: run.segment, localTime, to: &out.text) }
            try await out.flushIfFull(&writer)
        }
    }

    /// `{"segments":["…",…]}`, one encoded polyline per segment, as `JSONEncoder` writes it (a
    /// polyline's characters are `?`…`~`, of which only `\` needs escaping in a JSON string).
    private func polyline(_ out: inout Output, _ writer: inout any ResponseBodyWriter) async throws {
        out.text += #"{"segments":["#
        var segment = -1
        var encoder = EncodedPolyline.Encoder()
        var piece = ""
        try await reader.read { run in
            if run.segment != segment {
                out.text += segment >= 0 ? "\",\"" : "\""
                segment = run.segment
                encoder = EncodedPolyline.Encoder()
            }
            for point in run.points {
                piece.removeAll(keepingCapacity: true)
                encoder.append(latitude: point.latitude, longitude: point.longitude, to: &piece)
                for character in piece.unicodeScalars {
                    if character == "\\" { out.text += "\\\\" } else { out.text.unicodeScalars.append(character) }
                }
            }
            try await out.flushIfFull(&writer)
        }
        if segment >= 0 { out.text += "\"" }
        out.text += "]}"
    }

    /// Text waiting to be written.
    struct Output {
        var flushBytes: Int
        var text = ""

        mutating func flushIfFull(_ writer: inout any ResponseBodyWriter) async throws {
            if text.utf8.count >= flushBytes { try await flush(&writer) }
        }

        mutating func flush(_ writer: inout any ResponseBodyWriter) async throws {
            guard !text.isEmpty else { return }
            try await writer.write(ByteBuffer(string: text))
            text.removeAll(keepingCapacity: true)
        }
    }
}
