public import BackgroundCore
public import Foundation

/// The body of `POST /v1/batches` (docs/protocol.md §Batches).
///
/// Ids are strings on the wire so the server can name a malformed id in a rejection instead of
/// failing the whole batch. Optional fields are left out of the JSON when unknown.
///
/// ```swift
/// let body = try JSONEncoder().encode(BatchRequest(batch: UUID(), device: "iphone-42", samples: samples))
/// ```
public struct BatchRequest: Codable, Hashable, Sendable {
    /// The batch id: a UUID minted by the phone for this upload attempt.
    public var batch: String
    /// The device name the token belongs to; absent, the server files the batch under the
    /// token's device (a batch naming another device is refused whole).
    public var device: String?
    public var samples: [WireSample]
    /// The batch format: absent (1) or 2, which may carry ``gaps`` (docs/protocol.md §Gaps).
    public var v: Int? = nil
    /// Why the phone took no samples, since the last acknowledged upload (version 2); absent when none.
    public var gaps: [WireGap]? = nil
    /// The IANA time zone the phone is in, e.g. `Europe/Berlin` (version 3); absent when unknown.
    public var tz: String? = nil

    public init(batch: String, device: String?, samples: [WireSample]) {
        self.batch = batch
        self.device = device
        self.samples = samples
    }

    public init(batch: UUID, device: String?, samples: [Sample]) {
        self.init(batch: batch.wireString, device: device, samples: samples.map(WireSample.init))
    }
}

/// One sample as JSON: `t` is epoch milliseconds UTC, `speed` m/s, `acc`/`alt` metres, `course`
/// degrees, `battery` 0…1.
public struct WireSample: Codable, Hashable, Sendable {
    public var id: String
    public var seq: Int64
    /// Epoch milliseconds, UTC.
    public var t: Int64
    public var lat: Double
    public var lon: Double
    public var acc: Double?
    public var alt: Double?
    public var speed: Double?
    public var course: Double?
    public var battery: Double?
    public var charging: Bool?
    /// One of `SampleTrigger`'s raw values; kept as a string so an unknown value rejects one sample.
    public var trigger: String?
    /// `foreground` or `background`.
    public var state: String?

    public init(
        id: String, seq: Int64, t: Int64, lat: Double, lon: Double, acc: Double? = nil, alt: Double? = nil,
        speed: Double? = nil, course: Double? = nil, battery: Double? = nil, charging: Bool? = nil,
        trigger: String? = nil, state: String? = nil
    ) {
        self.id = id
        self.seq = seq
        self.t = t
        self.lat = lat
        self.lon = lon
        self.acc = acc
        self.alt = alt
        self.speed = speed
        self.course = course
        self.battery = battery
        self.charging = charging
        self.trigger = trigger
        self.state = state
    }

    public init(_ sample: Sample) {
        self.init(
            id: sample.id.wireString, seq: sample.seq, t: sample.time.milliseconds, lat: sample.latitude,
            lon: sample.longitude, acc: sample.accuracy, alt: sample.altitude, speed: sample.speed,
            course: sample.course, battery: sample.battery, charging: sample.charging,
            trigger: sample.trigger.rawValue, state: sample.state.rawValue)
    }

    /// The sample this JSON describes, validated against every sample rule that needs no
    /// receiver's clock (``SampleRuleSet/checkValues(_:)``; a receiver adds the time rules with
    /// `Sample.check(receivedAt:)`).
    ///
    /// A missing `trigger` reads as `timer` and a missing `state` as `background`, the common case.
    /// - Throws: `SampleRuleViolation` whose message is suitable for `rejected[].reason`.
    public func sample() throws(SampleRuleViolation) -> Sample {
        let sample = try decoded()
        try SampleRuleSet.checkValues(sample.ruleValues)
        return sample
    }

    /// The sample this JSON describes, with its id, trigger and state read but its values not
    /// checked: for a receiver that checks every rule itself (`Sample.check(receivedAt:)`).
    public func decoded() throws(SampleRuleViolation) -> Sample {
        let (uuid, trigger, state) = try names()
        return Sample(
            id: uuid, seq: seq, time: Instant(milliseconds: t), latitude: lat, longitude: lon, accuracy: acc,
            altitude: alt, speed: speed, course: course, battery: battery, charging: charging,
            trigger: trigger ?? .timer, state: state ?? .background)
    }

    /// Checks the names only the native protocol has: the id is a UUID, the trigger and the app
    /// state known ones (the server keeps them as text, so it needs no decoded sample).
    public func checkNames() throws(SampleRuleViolation) {
        _ = try names()
    }

    private func names() throws(SampleRuleViolation) -> (UUID, SampleTrigger?, SampleAppState?) {
        guard let uuid = UUID(parsing: id) else {
            throw SampleRuleViolation(.id, field: "id", "id \"\(id.prefix(64))\" is not a UUID")
        }
        let trigger = try self.trigger.map { (raw: String) throws(SampleRuleViolation) -> SampleTrigger in
            guard let value = SampleTrigger(rawValue: raw) else {
                let allowed = SampleTrigger.allCases.map(\.rawValue).joined(separator: ", ")
                throw SampleRuleViolation(
                    .trigger, field: "trigger", "trigger \"\(raw.prefix(32))\" is not one of \(allowed)")
            }
            return value
        }
        let state = try self.state.map { (raw: String) throws(SampleRuleViolation) -> SampleAppState in
            guard let value = SampleAppState(rawValue: raw) else {
                throw SampleRuleViolation(
                    .state, field: "state", "state \"\(raw.prefix(32))\" is not foreground or background")
            }
            return value
        }
        return (uuid, trigger, state)
    }
}

extension UUID {
    /// Lower-case canonical text, the form the wire uses.
    public var wireString: String { uuidString.lowercased() }
}
