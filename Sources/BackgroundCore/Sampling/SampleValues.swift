/// The measured values of one location sample: the one place its fields are listed.
///
/// Every sample type is this record plus what genuinely differs: a fix before the sampling rules
/// accepted it (``LocationFix``), the phone's stored row (`Sample`: id, seq, trigger, state), the
/// wire form (`WireSample`: the same, as unchecked text) and the server's row (`TrackSample`: its
/// idempotency key and protocol). Geometry, exports and the timeline use the record itself.
///
/// ``Field`` names each field on the wire (the native batch's JSON keys, which are also this
/// type's `Codable` keys) and in the stores' columns, so the stores and codecs map from it rather
/// than from lists of their own; code that handles every field loops over the fields and switches
/// on their ``Field/Kind``. Adding a field means: a stored property here, its ``Field`` case and
/// its arm in this file's switches (the compiler names them), its rule in ``SampleRuleSet`` when
/// it has one, its value in the GRDB binding (`statementArguments` in LocationLog), and a column in
/// the two server migrations and the phone's migration (docs/development.md §Fields).
///
/// Optional fields are `nil` when unknown; "unknown" is never 0 or -1.
public struct SampleValues: Hashable, Sendable {
    /// When the position was measured (not when it was delivered).
    public var time: Instant
    /// Degrees, -90…90.
    public var latitude: Double
    /// Degrees, -180…180.
    public var longitude: Double
    /// Horizontal accuracy radius in metres (68 % confidence).
    public var accuracy: Double?
    /// Vertical accuracy of ``altitude`` in metres (Core Location's `verticalAccuracy`).
    public var verticalAccuracy: Double?
    /// Metres above sea level.
    public var altitude: Double?
    /// Metres per second, ≥ 0.
    public var speed: Double?
    /// Degrees clockwise from true north, 0…360.
    public var course: Double?
    /// Battery level 0…1 when the sample was taken.
    public var battery: Double?
    /// Whether the phone was charging.
    public var charging: Bool?

    public init(
        time: Instant, latitude: Double, longitude: Double, accuracy: Double? = nil,
        verticalAccuracy: Double? = nil, altitude: Double? = nil, speed: Double? = nil, course: Double? = nil,
        battery: Double? = nil, charging: Bool? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.verticalAccuracy = verticalAccuracy
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.battery = battery
        self.charging = charging
    }

    /// The time and the position alone, every measurement unknown.
    public var positionOnly: SampleValues {
        SampleValues(time: time, latitude: latitude, longitude: longitude)
    }

    /// The values with the negative sentinels providers send for "unknown" (Core Location's
    /// speed, course and vertical accuracy -1) made `nil`: what a store keeps of a fix.
    public var withoutUnknownSentinels: SampleValues {
        var values = self
        for field in Field.measurements where field.negativeIsUnknown {
            if let value = measurement(field), value < 0 { values.setMeasurement(field, nil) }
        }
        return values
    }

    /// The values with an accuracy of 0 m (horizontal or vertical) made `nil`: no real fix's
    /// accuracy, but what clients send when they have none (Traccar Client, OwnTracks), so it is
    /// unknown in every protocol and import.
    public var withZeroAccuraciesAsUnknown: SampleValues {
        var values = self
        for field in Field.measurements where field.zeroIsUnknown && measurement(field) == 0 {
            values.setMeasurement(field, nil)
        }
        return values
    }
}

extension SampleValues {
    /// A field of the record: its key on the wire and its column in the stores.
    public enum Field: String, CaseIterable, Hashable, Sendable, CodingKey {
        case time = "t"
        case latitude = "lat"
        case longitude = "lon"
        case accuracy = "acc"
        case verticalAccuracy = "vacc"
        case altitude = "alt"
        case speed, course, battery, charging

        /// The key in the native batch's JSON and in this type's `Codable` form.
        public var wireKey: String { rawValue }

        /// The column in the phone's and the servers' `samples` tables: the wire key.
        public var column: String { rawValue }

        /// The columns of every field, in declaration order, for a `SELECT` or an `INSERT`.
        public static let columnList = allCases.map(\.column).joined(separator: ", ")

        /// The field's place in ``allCases`` and ``columnList``, for a store that reads columns by
        /// position.
        @inlinable
        public var index: Int {
            switch self {
            case .time: 0
            case .latitude: 1
            case .longitude: 2
            case .accuracy: 3
            case .verticalAccuracy: 4
            case .altitude: 5
            case .speed: 6
            case .course: 7
            case .battery: 8
            case .charging: 9
            }
        }

        /// The optional `Double` measurements (every field of kind ``Kind/measurement``), in
        /// declaration order; stores bind and read them in this order.
        public static let measurements: [Field] = allCases.filter { $0.kind == .measurement }

        /// Every field after the time and the position (the measurements and the flags), in
        /// declaration order: the optional ones.
        public static let afterPosition: [Field] = allCases.filter { $0.kind == .measurement || $0.kind == .flag }

        /// What a field holds, which is how a store types its column and how it is read and bound.
        public enum Kind: Sendable {
            /// ``SampleValues/time``: epoch milliseconds, an integer column.
            case time
            /// ``SampleValues/latitude`` or ``SampleValues/longitude``: a number, never unknown.
            case coordinate
            /// An optional number (``SampleValues/measurement(_:)``).
            case measurement
            /// An optional yes or no (``SampleValues/flag(_:)``).
            case flag
        }

        @inlinable
        public var kind: Kind {
            switch self {
            case .time: .time
            case .latitude, .longitude: .coordinate
            case .accuracy, .verticalAccuracy, .altitude, .speed, .course, .battery: .measurement
            case .charging: .flag
            }
        }

        /// Whether a negative value is a provider's "unknown" rather than a broken one (Core
        /// Location's speed, course and vertical accuracy -1): see ``SampleValues/withoutUnknownSentinels``.
        public var negativeIsUnknown: Bool {
            switch self {
            case .verticalAccuracy, .speed, .course: true
            default: false
            }
        }

        /// Whether 0 is "unknown" (an accuracy of 0 m): see ``SampleValues/withZeroAccuraciesAsUnknown``.
        public var zeroIsUnknown: Bool {
            switch self {
            case .accuracy, .verticalAccuracy: true
            default: false
            }
        }
    }

    /// The value of a measurement field (``Field/measurements``); `nil` when unknown and for the
    /// other fields. A switch, not a key path: stores and rules call it for every sample.
    @inlinable
    public func measurement(_ field: Field) -> Double? {
        switch field {
        case .time, .latitude, .longitude, .charging: nil
        case .accuracy: accuracy
        case .verticalAccuracy: verticalAccuracy
        case .altitude: altitude
        case .speed: speed
        case .course: course
        case .battery: battery
        }
    }

    /// Sets a measurement field (``Field/measurements``); does nothing for the other fields.
    @inlinable
    public mutating func setMeasurement(_ field: Field, _ value: Double?) {
        switch field {
        case .time, .latitude, .longitude, .charging: break
        case .accuracy: accuracy = value
        case .verticalAccuracy: verticalAccuracy = value
        case .altitude: altitude = value
        case .speed: speed = value
        case .course: course = value
        case .battery: battery = value
        }
    }

    /// A coordinate field's value (``Field/Kind/coordinate``); `nil` for the other fields.
    @inlinable
    public func coordinate(_ field: Field) -> Double? {
        switch field {
        case .latitude: latitude
        case .longitude: longitude
        default: nil
        }
    }

    /// A flag field's value (``Field/Kind/flag``); `nil` when unknown and for the other fields.
    @inlinable
    public func flag(_ field: Field) -> Bool? {
        switch field {
        case .charging: charging
        default: nil
        }
    }

    /// Sets a flag field (``Field/Kind/flag``); does nothing for the other fields.
    @inlinable
    public mutating func setFlag(_ field: Field, _ value: Bool?) {
        switch field {
        case .charging: charging = value
        default: break
        }
    }
}

extension SampleValues: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Field.self)
        try self.init(
            time: { try container.decode(Int64.self, forKey: .time) },
            position: { try container.decode(Double.self, forKey: $0) },
            measurement: { try container.decodeIfPresent(Double.self, forKey: $0) },
            flag: { try container.decodeIfPresent(Bool.self, forKey: $0) })
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        try container.encode(time.milliseconds, forKey: .time)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        for field in Field.afterPosition {
            switch field.kind {
            case .time, .coordinate: continue
            case .measurement: try container.encodeIfPresent(measurement(field), forKey: field)
            case .flag: try container.encodeIfPresent(flag(field), forKey: field)
            }
        }
    }
}

extension SampleValues {
    /// A record read from a store's row, field by field, in ``Field/allCases`` order (the order of
    /// ``Field/columnList``): `time` reads the time, `position` a coordinate, `measurement` an
    /// optional number and `flag` `charging`.
    @inlinable
    public init<Failure: Error>(
        time: () throws(Failure) -> Int64, position: (Field) throws(Failure) -> Double,
        measurement: (Field) throws(Failure) -> Double?, flag: (Field) throws(Failure) -> Bool?
    ) throws(Failure) {
        self.init(
            time: Instant(milliseconds: try time()), latitude: try position(.latitude),
            longitude: try position(.longitude))
        for field in Field.afterPosition {
            switch field.kind {
            case .time, .coordinate: continue
            case .measurement: setMeasurement(field, try measurement(field))
            case .flag: setFlag(field, try flag(field))
            }
        }
    }
}
