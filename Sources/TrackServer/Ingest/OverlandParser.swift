import BackgroundCore
import HTTPTypes
import Logging

/// Parses an Overland batch (docs/protocol.md §Overland): `{"locations": [Feature…], "current"?, "trip"?}`.
///
/// A location whose values are bogus (0,0, out of range, no timestamp) is skipped with a reason and
/// the rest are stored: Overland keeps its whole queue until it gets `"result":"ok"`, so failing the
/// batch for one bad point would block the phone for ever. A body that is not this shape is a 400.
struct OverlandParser: Sendable {
    var rules: SampleRules
    var maxSamples: Int

    struct Parsed {
        var samples: [TrackSample]
        var skipped: [(index: Int, reason: String)]
        var trip: JSONValue?
    }

    /// Overland-iOS's largest batch size setting.
    static let overlandLargestBatch = 1000

    func parse(_ body: JSONValue, now: Instant) throws(APIError) -> Parsed {
        guard case .object = body else {
            throw APIError(.badRequest, "the body must be a JSON object {\"locations\": [Feature…]}")
        }
        guard case .array(var features) = body["locations"] else {
            throw APIError(.badRequest, "field \"locations\" must be an array of GeoJSON Point features")
        }
        // Overland sends up to 1,000 locations plus `current` and never splits a batch: `current`
        // does not count, and the limit is never below Overland's largest batch.
        guard features.count <= max(maxSamples, Self.overlandLargestBatch) else {
            throw APIError(
                .contentTooLarge,
                "the batch has \(features.count) locations, more than the limit of \(maxSamples); "
                    + "lower Overland's batch size")
        }
        if let current = body["current"], current != .null { features.append(current) }
        var parsed = Parsed(samples: [], skipped: [], trip: body["trip"].flatMap { $0 == .null ? nil : $0 })
        var keys: Set<String> = []
        for (index, feature) in features.enumerated() {
            do {
                let sample = try self.sample(feature, label: "location \(index)", now: now)
                if keys.insert(sample.key).inserted { parsed.samples.append(sample) }
            } catch {
                parsed.skipped.append((index: index, reason: error.message))
            }
        }
        return parsed
    }

    private func sample(_ feature: JSONValue, label: String, now: Instant) throws(SampleProblem) -> TrackSample {
        let fields = try FieldReader(feature, label: label)
        guard let geometry = try fields.child("geometry") else { throw fields.problem("geometry", "is missing") }
        guard case .array(let coordinates) = geometry.object["coordinates"], coordinates.count >= 2,
            case .number(let lon) = coordinates[0], case .number(let lat) = coordinates[1], lat.isFinite,
            lon.isFinite
        else { throw fields.problem("geometry.coordinates", "must be [longitude, latitude] numbers") }
        let properties = try fields.child("properties") ?? FieldReader(members: [:], label: "\(label).properties")
        guard let stamp = try properties.string("timestamp") else {
            throw properties.problem("timestamp", "is required (ISO-8601)")
        }
        guard let time = TimestampParser.iso8601(stamp) else {
            throw properties.problem("timestamp", "\"\(stamp)\" is not an ISO-8601 time")
        }
        let speed = try properties.number("speed")
        let course = try properties.number("course")
        let accuracy = try properties.number("horizontal_accuracy")
        let batteryState = try properties.string("battery_state")
        // iOS sentinels Overland forwards as is: battery level -1 when the battery state is unknown,
        // and a negative vertical accuracy when the altitude is invalid. Both mean "unknown" (nil);
        // they must not make the location bogus, or it is skipped and Overland deletes it.
        let battery = try properties.number("battery_level")
        let verticalAccuracy = try properties.number("vertical_accuracy")
        let altitude = try properties.number("altitude")
        let sample = TrackSample.positioned(
            SampleValues(
                time: time, latitude: lat, longitude: lon, accuracy: accuracy.unlessUnknown.knownAccuracy,
                verticalAccuracy: verticalAccuracy.unlessUnknown.knownAccuracy,
                altitude: (verticalAccuracy ?? 0) < 0 ? nil : altitude, speed: speed.unlessUnknown,
                course: course.unlessUnknown, battery: battery.unlessUnknown,
                charging: batteryState.flatMap { ["charging": true, "full": true, "unplugged": false][$0] }),
            source: .overland)
        try rules.check(sample, label: label, now: now)
        return sample
    }
}
