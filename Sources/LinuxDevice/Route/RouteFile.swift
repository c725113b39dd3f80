package import BackgroundCore
import Foundation
import LocationLog

/// Reads a route for the Linux device from GPX (track, route or way points) or CSV.
///
/// Files are streamed (memory grows with points, not bytes) and refused above `maximumBytes`
/// with a message, so a 1 GB file is never loaded. CSV needs a header naming `lat`/`latitude`
/// and `lon`/`lng`/`longitude` columns, and optionally `t_ms` (epoch ms) or `time`/`timestamp`
/// (ISO-8601 or epoch seconds). Points without times are spaced by the sampling interval.
///
/// ```swift
/// let points = try RouteFile.read(path: "walk.gpx")
/// ```
package enum RouteFile {
    /// One point of a route file; `time` is `nil` when the file has none.
    package struct RoutePoint: Hashable, Sendable {
        package var latitude: Double
        package var longitude: Double
        package var altitude: Double?
        package var time: Instant?

        package init(latitude: Double, longitude: Double, altitude: Double? = nil, time: Instant? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.time = time
        }
    }

    /// Files above this size are refused (default 256 MiB, a few million points).
    package static let defaultMaximumBytes = 256 << 20
    /// At most this many points are read.
    package static let defaultMaximumPoints = 2_000_000

    /// - Throws: `RouteError` for a missing, too large, non-UTF-8, unknown-format or malformed file.
    package static func read(
        path: String, maximumBytes: Int = defaultMaximumBytes, maximumPoints: Int = defaultMaximumPoints
    ) throws(RouteError) -> [RoutePoint] {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw RouteError("route file \(path) cannot be read: \(error.localizedDescription)")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumBytes else {
            throw RouteError(
                "route file \(path) is \(size / (1 << 20)) MiB; routes up to \(maximumBytes / (1 << 20)) MiB are "
                    + "replayed. Cut it (e.g. one day per file) or simplify it first.")
        }
        let lower = path.lowercased()
        let points: [RoutePoint]
        if lower.hasSuffix(".gpx") {
            points = try readGPX(path: path, maximumPoints: maximumPoints)
        } else if lower.hasSuffix(".csv") {
            points = try readCSV(path: path, maximumPoints: maximumPoints)
        } else {
            throw RouteError("route file \(path) has an unknown type; use a .gpx or .csv file")
        }
        guard points.count >= 2 else {
            throw RouteError("route file \(path) has \(points.count) usable point(s); a route needs at least 2")
        }
        return points
    }

    static func readCSV(path: String, maximumPoints: Int) throws(RouteError) -> [RoutePoint] {
        var stream = try RecordStream(path: path, delimiter: 10)
        guard var header = try stream.next() else { throw RouteError("route file \(path) is empty") }
        // Spreadsheets save UTF-8 CSV with a byte-order mark; it is not part of the first column's name.
        if header.unicodeScalars.first == "\u{FEFF}" { header = String(header.unicodeScalars.dropFirst()) }
        let names = header.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().split(
            separator: ",", omittingEmptySubsequences: false
        ).map { $0.trimmingCharacters(in: .whitespaces) }
        func column(_ candidates: [String]) -> Int? { names.firstIndex { candidates.contains($0) } }
        guard let latitudeColumn = column(["lat", "latitude"]),
            let longitudeColumn = column(["lon", "lng", "longitude"])
        else {
            throw RouteError(
                "route file \(path) line 1 must be a header with lat/latitude and lon/lng/longitude columns, "
                    + "found: \(header.prefix(120))")
        }
        let millisecondsColumn = column(["t_ms", "t"])
        let timeColumn = column(["time", "timestamp"])
        var points: [RoutePoint] = []
        while let line = try stream.next() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
            func field(_ index: Int?) -> Substring? {
                guard let index, index < fields.count else { return nil }
                let value = fields[index].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : Substring(value)
            }
            guard let latitude = field(latitudeColumn).flatMap({ Double($0) }),
                let longitude = field(longitudeColumn).flatMap({ Double($0) })
            else {
                throw RouteError(
                    "route file \(path) line \(stream.recordNumber): lat and lon must be numbers: \(trimmed.prefix(120))"
                )
            }
            let time = try readTime(
                milliseconds: field(millisecondsColumn), text: field(timeColumn),
                place: "route file \(path) line \(stream.recordNumber)")
            try append(latitude, longitude, time, nil, to: &points, path: path, limit: maximumPoints)
        }
        return points
    }

    /// The GPX file's track points (`trkpt`); with none, its route points (`rtept`); with neither,
    /// its waypoints (`wpt`). The three are never strung together: waypoints are places, not a
    /// path, and mixing them into a track makes jumps of kilometres between consecutive fixes.
    static func readGPX(path: String, maximumPoints: Int) throws(RouteError) -> [RoutePoint] {
        // Records end at '>': each is "text<tag attributes>", a flat walk of the XML.
        var stream = try RecordStream(path: path, delimiter: UInt8(ascii: ">"))
        var byKind: [String: [RoutePoint]] = [:]
        var current: (kind: String, latitude: Double, longitude: Double, time: Instant?, altitude: Double?)?
        var sawGPX = false
        while let record = try stream.next() {
            guard let open = record.lastIndex(of: "<") else { continue }
            let text = record[..<open].trimmingCharacters(in: .whitespacesAndNewlines)
            let tag = record[record.index(after: open)...]
            let closing = tag.first == "/"
            let name = (closing ? "/" : "") + tag.dropFirst(closing ? 1 : 0).prefix { !$0.isWhitespace && $0 != "/" }
            switch name {
            case "gpx": sawGPX = true
            case "trkpt", "rtept", "wpt":
                guard let latitude = attribute("lat", in: tag).flatMap(Double.init),
                    let longitude = attribute("lon", in: tag).flatMap(Double.init)
                else {
                    throw RouteError(
                        "route file \(path) near byte record \(stream.recordNumber): <\(name)> needs numeric lat and "
                            + "lon attributes")
                }
                current = (name, latitude, longitude, nil, nil)
                if tag.hasSuffix("/") {
                    try append(
                        latitude, longitude, nil, nil, to: &byKind[name, default: []], path: path, limit: maximumPoints)
                    current = nil
                }
            case "/time": if current != nil { current?.time = Instant(iso8601: text) }
            case "/ele": if current != nil { current?.altitude = Double(text) }
            case "/trkpt", "/rtept", "/wpt":
                if let point = current {
                    try append(
                        point.latitude, point.longitude, point.time, point.altitude,
                        to: &byKind[point.kind, default: []],
                        path: path, limit: maximumPoints)
                }
                current = nil
            default: continue
            }
        }
        guard sawGPX else { throw RouteError("route file \(path) is not GPX: no <gpx> element") }
        return ["trkpt", "rtept", "wpt"].lazy.compactMap { byKind[$0] }.first { !$0.isEmpty } ?? []
    }

    /// The times a route may carry: years 1…9999. Far-off values (`1e300`, `nan`, ±2^63 ms) would
    /// trap converting to milliseconds or when the player subtracts one time from another.
    static let validTimes = Instant(milliseconds: -62_135_596_800_000)...Instant(milliseconds: 253_402_300_799_999)

    /// A CSV row's time from `t_ms` (epoch milliseconds) or else `time` (ISO-8601 or epoch
    /// seconds); `nil` when the row has neither. A value that is present but unreadable is an
    /// error: silently dropping it would change the whole route's replay timing.
    private static func readTime(milliseconds: Substring?, text: Substring?, place: String) throws(RouteError)
        -> Instant?
    {
        if let milliseconds {
            guard let value = Int64(milliseconds), validTimes.contains(Instant(milliseconds: value)) else {
                throw RouteError(
                    "\(place): time \"\(milliseconds.prefix(40))\" in the t_ms column is not whole epoch milliseconds "
                        + "in the years 1…9999; fix or remove the value")
            }
            return Instant(milliseconds: value)
        }
        guard let text else { return nil }
        if let instant = Instant(iso8601: text) { return instant }
        if let seconds = Double(text), seconds.isFinite, abs(seconds) < 1e12,
            validTimes.contains(Instant(seconds: seconds))
        {
            return Instant(seconds: seconds)
        }
        throw RouteError(
            "\(place): time \"\(text.prefix(40))\" is neither ISO-8601 (2024-11-22T01:46:40Z) nor epoch seconds in "
                + "the years 1…9999; fix or remove the value")
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        for quote in ["\"", "'"] {
            if let start = tag.range(of: " \(name)=\(quote)") ?? tag.range(of: "\t\(name)=\(quote)")
                ?? tag.range(of: "\n\(name)=\(quote)"),
                let end = tag[start.upperBound...].firstIndex(of: Character(quote))
            {
                return String(tag[start.upperBound..<end])
            }
        }
        return nil
    }

    private static func append(
        _ latitude: Double, _ longitude: Double, _ time: Instant?, _ altitude: Double?, to points: inout [RoutePoint],
        path: String, limit: Int
    ) throws(RouteError) {
        guard points.count < limit else {
            throw RouteError("route file \(path) has more than \(limit) points; cut or simplify it")
        }
        do {
            try Sample.checkPosition(latitude: latitude, longitude: longitude)
        } catch {
            throw RouteError("route file \(path) point \(points.count + 1): \(error)")
        }
        if let altitude, !altitude.isFinite {
            // The sampling rules would refuse every fix replayed from this point, silently.
            throw RouteError(
                "route file \(path) point \(points.count + 1): elevation \(altitude) is not a finite number of metres")
        }
        points.append(RoutePoint(latitude: latitude, longitude: longitude, altitude: altitude, time: time))
    }
}
