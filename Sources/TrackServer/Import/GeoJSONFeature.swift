import BackgroundCore

/// A GeoJSON `Feature` (RFC 7946) of a `FeatureCollection`: a `Point` with its time in
/// `properties` (`time`, `timestamp` or `date`: ISO-8601 or Unix seconds/milliseconds, as
/// Dawarich, OwnTracks and this server's own export write it), or a `LineString` /
/// `MultiLineString` with one time per point in `properties.coordTimes` (as togeojson writes GPX
/// tracks). Features without times are refused: a track point needs its time.
enum GeoJSONFeature {
    static func points(_ value: JSONValue) throws(SampleProblem) -> [TrackSample] {
        let feature = try FieldReader(value, label: "the feature")
        guard let geometry = try feature.child("geometry") else {
            throw feature.problem("geometry", "is required and missing")
        }
        let properties = try feature.child("properties") ?? FieldReader(members: [:], label: "the feature.properties")
        let type = try geometry.string("type") ?? ""
        let coordinates = geometry.object["coordinates"] ?? .null
        switch type {
        case "Point":
            guard let at = try time(properties) else {
                throw properties.problem(
                    "time", "is required: a point needs its time (\"time\", \"timestamp\" or \"date\")")
            }
            let position = try self.position(coordinates, label: "geometry.coordinates")
            let accuracy = try properties.number("accuracy")
            let acc = try properties.number("acc")
            let altitude = try properties.number("altitude")
            return [
                .imported(
                    time: at, latitude: position.latitude, longitude: position.longitude,
                    accuracy: accuracy ?? acc, altitude: position.altitude ?? altitude,
                    speed: try properties.number("speed"), course: try properties.number("course"))
            ]
        case "LineString":
            return try line(coordinates, times: properties.object["coordTimes"], label: "geometry.coordinates")
        case "MultiLineString":
            guard case .array(let lines) = coordinates else {
                throw geometry.problem("coordinates", "must be an array of lines")
            }
            var times: [JSONValue] = []
            if case .array(let nested) = properties.object["coordTimes"] { times = nested }
            var points: [TrackSample] = []
            for (index, line) in lines.enumerated() {
                let lineTimes = index < times.count ? times[index] : nil
                points += try self.line(line, times: lineTimes, label: "geometry.coordinates[\(index)]")
            }
            return points
        default:
            throw geometry.problem(
                "type", "\"\(type.prefix(40))\" is not imported; only Point, LineString and MultiLineString are")
        }
    }

    private static func line(_ coordinates: JSONValue, times: JSONValue?, label: String) throws(SampleProblem)
        -> [TrackSample]
    {
        guard case .array(let positions) = coordinates else {
            throw SampleProblem(message: "field \"\(label)\" must be an array of positions")
        }
        guard case .array(let stamps) = times, stamps.count == positions.count else {
            throw SampleProblem(
                message:
                    "field \"properties.coordTimes\" must hold one time per point of \(label) (\(positions.count)); "
                    + "a line without times cannot become a track")
        }
        var points: [TrackSample] = []
        points.reserveCapacity(positions.count)
        for (index, element) in positions.enumerated() {
            let position = try self.position(element, label: "\(label)[\(index)]")
            guard let at = instant(stamps[index]) else {
                throw SampleProblem(message: "field \"properties.coordTimes[\(index)]\" is not a time")
            }
            points.append(
                .imported(
                    time: at, latitude: position.latitude, longitude: position.longitude, altitude: position.altitude))
        }
        return points
    }

    private static func position(_ value: JSONValue, label: String) throws(SampleProblem)
        -> (latitude: Double, longitude: Double, altitude: Double?)
    {
        guard case .array(let numbers) = value, numbers.count >= 2, case .number(let longitude) = numbers[0],
            case .number(let latitude) = numbers[1]
        else {
            throw SampleProblem(
                message: "field \"\(label)\" must be [longitude, latitude] or [longitude, latitude, altitude]")
        }
        var altitude: Double?
        if numbers.count > 2, case .number(let value) = numbers[2] { altitude = value }
        return (latitude, longitude, altitude)
    }

    private static func time(_ properties: FieldReader) throws(SampleProblem) -> Instant? {
        for name in ["time", "timestamp", "date", "t"] {
            guard let value = properties.object[name], value != .null else { continue }
            guard let at = instant(value) else {
                throw properties.problem(name, "is not an ISO-8601 time or a Unix time")
            }
            return at
        }
        return nil
    }

    private static func instant(_ value: JSONValue) -> Instant? {
        switch value {
        case .string(let text): TimestampParser.instant(from: text)
        case .number(let number): TimestampParser.instant(fromNumber: number)
        default: nil
        }
    }
}
