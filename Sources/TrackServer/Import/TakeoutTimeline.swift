import BackgroundCore
import LocationLog

/// The on-device Timeline export (Google Maps → Timeline → Export, since 2024), whose points sit
/// in three places: each `semanticSegments` element's `timelinePath` (`{"point":"48.1°, 11.5°",
/// "time":…}`), its `visit` (`topCandidate.placeLocation.latLng` at `startTime`) and `activity`
/// (`start`/`end` `latLng` at `startTime`/`endTime`); and `rawSignals` elements' `position`
/// (`{"LatLng":…,"accuracyMeters":…,"timestamp":…}`). The iOS export is a top-level array of
/// segments writing positions as `"geo:48.1,11.5"` and path times as
/// `durationMinutesOffsetFromStartTime`.
enum TakeoutTimeline {
    static func segmentPoints(_ value: JSONValue) throws(SampleProblem) -> [TrackSample] {
        let fields = try FieldReader(value, label: "the segment")
        let start = try time(fields, "startTime")
        let end = try time(fields, "endTime")
        var points: [TrackSample] = []
        if case .array(let path) = fields.object["timelinePath"] {
            for (index, element) in path.enumerated() {
                let step = try FieldReader(element, label: "timelinePath[\(index)]")
                let (latitude, longitude) = try latLng(step, "point")
                let at: Instant
                if let explicit = try time(step, "time") {
                    at = explicit
                } else if let minutes = try offsetMinutes(step), let start {
                    at = start + .seconds(minutes * 60)
                } else {
                    throw step.problem("time", "is required and missing")
                }
                points.append(.imported(time: at, latitude: latitude, longitude: longitude))
            }
        }
        if let visit = try fields.child("visit"), let candidate = try visit.child("topCandidate"), let start {
            if let place = try placeLocation(candidate) {
                points.append(.imported(time: start, latitude: place.0, longitude: place.1))
            }
        }
        if let activity = try fields.child("activity") {
            if let start, let position = try endpoint(activity, "start") {
                points.append(.imported(time: start, latitude: position.0, longitude: position.1))
            }
            if let end, let position = try endpoint(activity, "end") {
                points.append(.imported(time: end, latitude: position.0, longitude: position.1))
            }
        }
        return points
    }

    /// A `rawSignals` element: a point when it is a `position`; Wi-Fi scans and activity records
    /// hold none.
    static func signalPoints(_ value: JSONValue) throws(SampleProblem) -> [TrackSample] {
        let fields = try FieldReader(value, label: "the signal")
        guard let position = try fields.child("position") else { return [] }
        let (latitude, longitude) = try latLng(position, "LatLng")
        guard let at = try time(position, "timestamp") else {
            throw position.problem("timestamp", "is required and missing")
        }
        return [
            .imported(
                time: at, latitude: latitude, longitude: longitude, accuracy: try position.number("accuracyMeters"),
                altitude: try position.number("altitudeMeters"), speed: try position.number("speedMetersPerSecond"))
        ]
    }

    private static func time(_ fields: FieldReader, _ name: String) throws(SampleProblem) -> Instant? {
        guard let text = try fields.string(name) else { return nil }
        guard let instant = Instant(iso8601: text) else {
            throw fields.problem(name, "\"\(text.prefix(40))\" is not an ISO-8601 time")
        }
        return instant
    }

    private static func offsetMinutes(_ fields: FieldReader) throws(SampleProblem) -> Double? {
        switch fields.object["durationMinutesOffsetFromStartTime"] {
        case .string(let text):
            guard let minutes = Double(text), minutes.isFinite, abs(minutes) < 1e7 else {
                throw fields.problem("durationMinutesOffsetFromStartTime", "must be a number of minutes")
            }
            return minutes
        case .number(let minutes) where abs(minutes) < 1e7: return minutes
        case nil, .null: return nil
        case .some: throw fields.problem("durationMinutesOffsetFromStartTime", "must be a number of minutes")
        }
    }

    /// `placeLocation` is `{"latLng":"…"}` (Android) or `"geo:…"` (iOS).
    private static func placeLocation(_ candidate: FieldReader) throws(SampleProblem) -> (Double, Double)? {
        if case .string = candidate.object["placeLocation"] { return try latLng(candidate, "placeLocation") }
        guard let place = try candidate.child("placeLocation") else { return nil }
        return try latLng(place, "latLng")
    }

    /// `activity.start` is `{"latLng":"…"}` (Android) or `"geo:…"` (iOS).
    private static func endpoint(_ activity: FieldReader, _ name: String) throws(SampleProblem) -> (Double, Double)? {
        switch activity.object[name] {
        case .string: return try latLng(activity, name)
        case .object:
            return try activity.child(name).map { reader throws(SampleProblem) in try latLng(reader, "latLng") }
        default: return nil
        }
    }

    /// `"48.1234567°, 11.1234567°"` or `"geo:48.1234567,11.1234567"`.
    static func latLng(_ fields: FieldReader, _ name: String) throws(SampleProblem) -> (Double, Double) {
        guard let text = try fields.string(name) else { throw fields.problem(name, "is required and missing") }
        var body = Substring(text)
        if body.hasPrefix("geo:") { body = body.dropFirst(4) }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        func degrees(_ part: Substring) -> Double? {
            let trimmed = part.filter { $0 != " " && $0 != "°" }
            guard let value = Double(trimmed), value.isFinite else { return nil }
            return value
        }
        guard parts.count == 2, let latitude = degrees(parts[0]), let longitude = degrees(parts[1]) else {
            throw fields.problem(
                name, "\"\(text.prefix(40))\" is not a position like \"48.1°, 11.5°\" or \"geo:48.1,11.5\"")
        }
        return (latitude, longitude)
    }
}
