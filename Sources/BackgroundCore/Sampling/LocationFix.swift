/// One position as a location provider reported it, before any filtering: the record
/// (``SampleValues``) and whether the position is approximate on purpose.
///
/// A plain value type so core logic never sees CoreLocation: the iOS shell converts a
/// `CLLocation`, the simulator and the Linux device build these directly. Optional fields are
/// `nil` when the provider did not measure them; "unknown" is never encoded as 0 or -1. The
/// record's fields read through (`fix.latitude`, `fix.verticalAccuracy`); ``timestamp`` and
/// ``horizontalAccuracy`` are Core Location's names for its `time` and `accuracy`.
@dynamicMemberLookup
public struct LocationFix: Hashable, Sendable {
    /// The measured values; a fix has no power context (the store adds it).
    public var values: SampleValues
    /// The app has only approximate location (Precise Location off, `reducedAccuracy`): the
    /// position is kilometres off on purpose. Such fixes are kept even though their accuracy is
    /// worse than the sampling limit, since no better one can come (issue 8, item 6).
    public var isApproximate: Bool

    public init(_ values: SampleValues, isApproximate: Bool = false) {
        self.values = values
        self.isApproximate = isApproximate
    }

    /// A fix with Core Location's names: `horizontalAccuracy` is the radius in metres (68 %
    /// confidence), > 0 for a usable fix.
    public init(
        timestamp: Instant, latitude: Double, longitude: Double, horizontalAccuracy: Double,
        altitude: Double? = nil, verticalAccuracy: Double? = nil, speed: Double? = nil, course: Double? = nil,
        isApproximate: Bool = false
    ) {
        self.init(
            SampleValues(
                time: timestamp, latitude: latitude, longitude: longitude, accuracy: horizontalAccuracy,
                verticalAccuracy: verticalAccuracy, altitude: altitude, speed: speed, course: course),
            isApproximate: isApproximate)
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<SampleValues, Value>) -> Value {
        get { values[keyPath: keyPath] }
        set { values[keyPath: keyPath] = newValue }
    }

    /// When the provider measured the position (not when it was delivered).
    public var timestamp: Instant {
        get { values.time }
        set { values.time = newValue }
    }

    /// Horizontal accuracy radius in metres; 0 (unusable) when the provider gave none.
    public var horizontalAccuracy: Double {
        get { values.accuracy ?? 0 }
        set { values.accuracy = newValue }
    }
}

/// What caused a sample to be taken. The raw values are the wire format's `trigger` field.
///
/// `motion`: a fix asked for when the motion coprocessor reported that the user set off, so a
/// trip's first leg starts where the person left rather than at the next slot's fix (a server
/// older than the trigger refuses such a sample one by one and keeps the rest of the batch).
public enum SampleTrigger: String, CaseIterable, Codable, Hashable, Sendable {
    case timer, significant, visit, region, foreground, refresh, push, manual, motion
}

/// Whether the app was on screen when a sample was taken. Raw values are the wire's `state`.
public enum SampleAppState: String, CaseIterable, Codable, Hashable, Sendable {
    case foreground, background
}
