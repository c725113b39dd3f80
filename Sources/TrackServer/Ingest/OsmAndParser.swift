import BackgroundCore
import Foundation
import HTTPTypes
import Logging

/// Parses OsmAnd / Traccar Client requests (docs/protocol.md §OsmAnd): query or form parameters, or the
/// JSON form of newer clients (one location or an array).
struct OsmAndParser: Sendable {
    var rules: SampleRules
    var maxSamples: Int
    static let metresPerSecondPerKnot = 0.514444

    struct Parsed {
        var device: String
        var token: String?
        var samples: [TrackSample]
    }

    /// Parameters from the query string and a form body, the body winning on repeated names.
    func parse(parameters: [String: String], now: Instant) throws(APIError) -> Parsed {
        guard let device = parameters["id"] ?? parameters["deviceid"], !device.isEmpty else {
            throw APIError(.badRequest, "parameter \"id\" (the device name) is required")
        }
        do {
            return Parsed(device: device, token: parameters["token"], samples: [try sample(parameters, now: now)])
        } catch {
            throw APIError(.badRequest, error.message)
        }
    }

    func parse(json body: JSONValue, token: String?, now: Instant) throws(APIError) -> Parsed {
        guard case .object = body else {
            throw APIError(.badRequest, "the JSON body must be an object {\"device_id\", \"location\"}")
        }
        guard case .string(let device) = body["device_id"], !device.isEmpty else {
            throw APIError(.badRequest, "field \"device_id\" (the device name) must be a non-empty string")
        }
        let bodyToken: String?
        if case .string(let value) = body["token"] { bodyToken = value } else { bodyToken = nil }
        let locations: [JSONValue]
        switch body["location"] {
        case .array(let items): locations = items
        case .object: locations = [body["location"] ?? .null]
        default: throw APIError(.badRequest, "field \"location\" must be an object or an array of objects")
        }
        guard locations.count <= maxSamples else {
            throw APIError(.contentTooLarge, "\(locations.count) locations is more than the limit of \(maxSamples)")
        }
        var samples: [TrackSample] = []
        for (index, location) in locations.enumerated() {
            do {
                samples.append(try sample(json: location, label: "location \(index)", now: now))
            } catch {
                throw APIError(.badRequest, error.message)
            }
        }
        return Parsed(device: device, token: token ?? bodyToken, samples: samples)
    }

    private func sample(_ parameters: [String: String], now: Instant) throws(SampleProblem) -> TrackSample {
        func number(_ name: String) throws(SampleProblem) -> Double? {
            guard let text = parameters[name], !text.isEmpty else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw SampleProblem(message: "parameter \"\(name)\" must be a number, got \"\(text.prefix(40))\"")
            }
            return value
        }
        var lat = try number("lat")
        var lon = try number("lon")
        if lat == nil, lon == nil, let location = parameters["location"] {
            let parts = location.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let first = parts[0], let second = parts[1] else {
                throw SampleProblem(message: "parameter \"location\" must be \"lat,lon\"")
            }
            (lat, lon) = (first, second)
        }
        guard let lat, let lon, lat.isFinite, lon.isFinite else {
            throw SampleProblem(message: "parameters \"lat\" and \"lon\" (or \"location=lat,lon\") are required")
        }
        var time = now
        if let stamp = parameters["timestamp"], !stamp.isEmpty {
            guard let parsed = TimestampParser.instant(from: stamp) else {
                throw SampleProblem(
                    message: "parameter \"timestamp\" \"\(stamp.prefix(40))\" is not Unix seconds, milliseconds, "
                        + "ISO-8601 or yyyy-MM-dd HH:mm:ss")
            }
            time = parsed
        }
        let speed = try number("speed")
        let battery = try number("batt")
        let bearing = try number("bearing")
        let heading = try number("heading")
        let sample = TrackSample.positioned(
            SampleValues(
                time: time, latitude: lat, longitude: lon,
                // Traccar Client sends accuracy=0 when the fix has none: unknown, not 0 m.
                accuracy: try number("accuracy").unlessUnknown.knownAccuracy, altitude: try number("altitude"),
                speed: speed.unlessUnknown.map { $0 * Self.metresPerSecondPerKnot }, course: bearing ?? heading,
                battery: battery.map { $0 / 100 },
                charging: parameters["charge"].flatMap { ["true": true, "1": true, "false": false, "0": false][$0] }),
            source: .osmand)
        try rules.check(sample, label: "location", now: now)
        return sample
    }

    private func sample(json location: JSONValue, label: String, now: Instant) throws(SampleProblem) -> TrackSample {
        let fields = try FieldReader(location, label: label)
        guard let coords = try fields.child("coords") else { throw fields.problem("coords", "is required") }
        let lat = try coords.requiredNumber("latitude")
        let lon = try coords.requiredNumber("longitude")
        var time = now
        if let stamp = try fields.string("timestamp") {
            guard let parsed = TimestampParser.instant(from: stamp) else {
                throw fields.problem("timestamp", "\"\(stamp.prefix(40))\" is not an ISO-8601 time")
            }
            time = parsed
        }
        let battery = try fields.child("battery")
        let speed = try coords.number("speed")
        let heading = try coords.number("heading")
        let level = try battery?.number("level")
        let sample = TrackSample.positioned(
            SampleValues(
                time: time, latitude: lat, longitude: lon,
                accuracy: try coords.number("accuracy").unlessUnknown.knownAccuracy,
                altitude: try coords.number("altitude"), speed: speed.unlessUnknown, course: heading.unlessUnknown,
                battery: level.unlessUnknown, charging: try battery?.bool("is_charging")),
            source: .osmand)
        try rules.check(sample, label: label, now: now)
        return sample
    }
}
