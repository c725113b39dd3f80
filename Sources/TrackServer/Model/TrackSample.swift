public import BackgroundCore

/// A validated location sample as the server stores it, whatever protocol it came in by.
///
/// Units are normalised on the way in: `speed` is m/s, `battery` 0–1, `time` epoch milliseconds.
/// Optional fields are `nil` when the client did not send them; "unknown" is never 0 or -1.
/// `key` makes ingest idempotent: the sample id where the protocol has one, otherwise
/// device + time + position (see ``TrackSample/positionKey(time:latitude:longitude:)``).
@dynamicMemberLookup
public struct TrackSample: Hashable, Sendable {
    public var key: String
    public var id: String?
    public var seq: Int64?
    /// The measured values (`SampleValues`); they read through: `sample.latitude`.
    public var values: SampleValues
    public var trigger: String?
    public var state: String?
    public var source: IngestSource

    public init(
        key: String, id: String? = nil, seq: Int64? = nil, values: SampleValues, trigger: String? = nil,
        state: String? = nil, source: IngestSource
    ) {
        self.key = key
        self.id = id
        self.seq = seq
        self.values = values
        self.trigger = trigger
        self.state = state
        self.source = source
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<SampleValues, Value>) -> Value {
        get { values[keyPath: keyPath] }
        set { values[keyPath: keyPath] = newValue }
    }

    /// A sample of a protocol without sample ids, keyed by its time and position
    /// (``positionKey(time:latitude:longitude:)``).
    public static func positioned(_ values: SampleValues, trigger: String? = nil, source: IngestSource) -> TrackSample {
        TrackSample(
            key: positionKey(time: values.time, latitude: values.latitude, longitude: values.longitude),
            values: values, trigger: trigger, source: source)
    }

    /// The idempotency key for protocols without a sample id: the same device reporting the same
    /// instant at the same position (to about 1 cm) is the same sample.
    public static func positionKey(time: Instant, latitude: Double, longitude: Double) -> String {
        // Called before range checks too, so never trap on a wild value.
        func scaled(_ degrees: Double) -> String {
            Int64(exactly: (degrees * 1e7).rounded()).map(String.init) ?? "\(degrees)"
        }
        return "p:\(time.milliseconds):\(scaled(latitude)):\(scaled(longitude))"
    }
}

/// Which client protocol delivered a sample (docs/protocol.md §Batches, §Overland, §OwnTracks, §OsmAnd).
public enum IngestSource: String, Hashable, Sendable, CaseIterable {
    case native, overland, owntracks, osmand
    /// `bgtrack import` and `POST /v1/devices/{device}/imports` (GPX, KML, GeoJSON, Takeout, `.rec`).
    case imported = "import"
}
