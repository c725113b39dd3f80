import BackgroundCore
import HTTPTypes
import Logging

/// Parses one OwnTracks HTTP message (docs/protocol.md §OwnTracks).
///
/// Only `_type:"location"` becomes a sample; every other `_type` is kept as an event and never an
/// error. OwnTracks deletes its message on a 4xx too, so only a truly unusable location is refused.
struct OwnTracksParser: Sendable {
    var rules: SampleRules

    enum Parsed {
        case location(TrackSample)
        case event(type: String)
        /// `_type: "encrypted"`: `data` is a secretbox payload (``OwnTracksEncryption``) holding
        /// one of the other messages.
        case encrypted(data: String)
    }

    /// OwnTracks `t` (trigger) letters mapped to our trigger names.
    static let triggers: [String: String] = [
        "p": "timer", "t": "timer", "c": "region", "b": "region", "r": "push", "u": "manual", "v": "visit",
    ]

    func parse(_ body: JSONValue, now: Instant) throws(APIError) -> Parsed {
        guard case .object = body else {
            throw APIError(.badRequest, "the body must be one OwnTracks JSON object with a \"_type\"")
        }
        guard case .string(let type) = body["_type"] else {
            throw APIError(.badRequest, "field \"_type\" must be a string such as \"location\"")
        }
        if type == "encrypted" {
            guard case .string(let data) = body["data"] else {
                throw APIError(.badRequest, "an encrypted message needs its payload as a base64 string in \"data\"")
            }
            return .encrypted(data: data)
        }
        guard type == "location" else { return .event(type: type) }
        do {
            return .location(try sample(body, now: now))
        } catch {
            throw APIError(.badRequest, error.message)
        }
    }

    private func sample(_ body: JSONValue, now: Instant) throws(SampleProblem) -> TrackSample {
        let sample = try Self.fields(of: body)
        try rules.check(sample, label: "location", now: now)
        return sample
    }

    /// A location message's fields as a sample, before the value checks (an import checks them
    /// with its own position in the message).
    static func fields(of body: JSONValue) throws(SampleProblem) -> TrackSample {
        let fields = try FieldReader(body, label: "location")
        let lat = try fields.requiredNumber("lat")
        let lon = try fields.requiredNumber("lon")
        let tst = try fields.requiredNumber("tst")
        guard abs(tst) < 1e13 else { throw fields.problem("tst", "\(tst) is not Unix seconds") }
        let time = Instant(seconds: tst)
        let velocity = try fields.number("vel")
        let battery = try fields.number("batt")
        let batteryStatus = try fields.number("bs")
        let course = try fields.number("cog")
        let sample = TrackSample.positioned(
            SampleValues(
                time: time, latitude: lat, longitude: lon, accuracy: try fields.number("acc").knownAccuracy,
                verticalAccuracy: try fields.number("vac").unlessUnknown.knownAccuracy,
                altitude: try fields.number("alt"), speed: velocity.unlessUnknown.map { $0 / 3.6 },
                course: course.unlessUnknown, battery: battery.unlessUnknown.map { $0 / 100 },
                charging: batteryStatus.flatMap(Int.init(exactly:)).flatMap { [1: false, 2: true, 3: true][$0] }),
            trigger: try fields.string("t").flatMap { Self.triggers[$0] }, source: .owntracks)
        return sample
    }
}
