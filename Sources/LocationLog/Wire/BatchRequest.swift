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

/// One sample as JSON: the record's fields under their wire keys (`SampleValues/Field`: `t`
/// epoch milliseconds UTC, `lat`/`lon` degrees, `acc`/`vacc`/`alt` metres, `speed` m/s, `course`
/// degrees, `battery` 0…1, `charging`), beside the phone's `id`, `seq`, `trigger` and `state`.
///
/// The id, trigger and state stay text until ``sample()`` reads them, so a receiver can refuse one
/// malformed sample by name instead of failing the whole batch.
@dynamicMemberLookup
public struct WireSample: Hashable, Sendable {
    public var id: String
    public var seq: Int64
    public var values: SampleValues
    /// One of `SampleTrigger`'s raw values; kept as a string so an unknown value rejects one sample.
    public var trigger: String?
    /// `foreground` or `background`.
    public var state: String?

    public init(id: String, seq: Int64, values: SampleValues, trigger: String? = nil, state: String? = nil) {
        self.id = id
        self.seq = seq
        self.values = values
        self.trigger = trigger
        self.state = state
    }

    public init(_ sample: Sample) {
        self.init(
            id: sample.id.wireString, seq: sample.seq, values: sample.values, trigger: sample.trigger.rawValue,
            state: sample.state.rawValue)
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<SampleValues, Value>) -> Value {
        get { values[keyPath: keyPath] }
        set { values[keyPath: keyPath] = newValue }
    }

    /// The sample this JSON describes, validated against every sample rule that needs no
    /// receiver's clock (`SampleRuleSet.checkValues(_:seq:)`; a receiver adds the time rules with
    /// `Sample.check(receivedAt:)`).
    ///
    /// A missing `trigger` reads as `timer` and a missing `state` as `background`, the common case.
    /// - Throws: `SampleRuleViolation` whose message is suitable for `rejected[].reason`.
    public func sample() throws(SampleRuleViolation) -> Sample {
        let sample = try decoded()
        try SampleRuleSet.checkValues(sample.values, seq: sample.seq)
        return sample
    }

    /// The sample this JSON describes, with its id, trigger and state read but its values not
    /// checked: for a receiver that checks every rule itself (`Sample.check(receivedAt:)`).
    public func decoded() throws(SampleRuleViolation) -> Sample {
        let (uuid, trigger, state) = try names()
        return Sample(id: uuid, seq: seq, values: values, trigger: trigger ?? .timer, state: state ?? .background)
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

extension WireSample: Codable {
    private enum Key: String, CodingKey {
        case id, seq, trigger, state
    }

    /// The phone's fields and the record's share one JSON object: `id`, `seq`, then the record's
    /// keys in their order, then `trigger` and `state`.
    /// Decoded from one container (a JSON decoder indexes an object's members for each container
    /// it opens: opening a second one for the record cost the general path a quarter of its time).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MemberKey.self)
        self.init(
            id: try container.decode(String.self, forKey: MemberKey(Key.id)),
            seq: try container.decode(Int64.self, forKey: MemberKey(Key.seq)),
            values: try SampleValues(
                time: { try container.decode(Int64.self, forKey: MemberKey(SampleValues.Field.time)) },
                position: { try container.decode(Double.self, forKey: MemberKey($0)) },
                measurement: { try container.decodeIfPresent(Double.self, forKey: MemberKey($0)) },
                flag: { try container.decodeIfPresent(Bool.self, forKey: MemberKey($0)) }),
            trigger: try container.decodeIfPresent(String.self, forKey: MemberKey(Key.trigger)),
            state: try container.decodeIfPresent(String.self, forKey: MemberKey(Key.state)))
    }

    /// Any member of a sample's object: the phone's own (``Key``) or the record's (`Field`).
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ key: some CodingKey) { stringValue = key.stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: .id)
        try container.encode(seq, forKey: .seq)
        try values.encode(to: encoder)
        var tail = encoder.container(keyedBy: Key.self)
        try tail.encodeIfPresent(trigger, forKey: .trigger)
        try tail.encodeIfPresent(state, forKey: .state)
    }
}

extension UUID {
    /// Lower-case canonical text, the form the wire uses.
    public var wireString: String { uuidString.lowercased() }
}
