public import BackgroundCore
public import LocationLog

/// A place the person stayed: at least the minimum stay duration within the stay radius.
public struct Stay: Hashable, Sendable {
    /// The first sample at the place.
    public var start: Instant
    /// The last sample at the place.
    public var end: Instant
    /// The mean position of the stay's samples.
    public var latitude: Double
    public var longitude: Double
    /// The furthest sample from the centre, in metres.
    public var radius: Double
    public var sampleCount: Int
    /// Whether part of the stay spans a gap with the same position at both ends: the person was
    /// assumed to stay, no sample shows it.
    public var inferred: Bool

    public init(
        start: Instant, end: Instant, latitude: Double, longitude: Double, radius: Double, sampleCount: Int,
        inferred: Bool
    ) {
        self.start = start
        self.end = end
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.sampleCount = sampleCount
        self.inferred = inferred
    }

    public var duration: Duration { end - start }
}

/// How a trip was probably made, guessed from its mean speed.
public enum TravelMode: String, Hashable, Sendable, CaseIterable, Codable {
    case still
    case walking
    case cycling
    case vehicle

    /// The mode for a mean speed in m/s: below 0.5 still, below 2.5 (9 km/h) walking, below 7
    /// (25 km/h) cycling, vehicle above. A guess: a walk to a train averages somewhere between.
    public init(meanSpeed: Double) {
        switch meanSpeed {
        case ..<0.5: self = .still
        case ..<2.5: self = .walking
        case ..<7: self = .cycling
        default: self = .vehicle
        }
    }
}

/// The movement between two stays (or between a stay and a gap), measured along its samples.
public struct Trip: Hashable, Sendable {
    /// The last sample of the stay it left (or the first sample after a gap).
    public var start: Instant
    /// The first sample of the stay it reached (or the last sample before a gap).
    public var end: Instant
    /// Metres along the samples, in order.
    public var distance: Double
    public var sampleCount: Int
    public var startLatitude: Double
    public var startLongitude: Double
    public var endLatitude: Double
    public var endLongitude: Double
    /// How the trip was probably made: the mode of the legs that covered most of its distance
    /// (a walk to a train and the ride are a vehicle trip, not the cycling their mean suggests).
    public var mode: TravelMode

    /// - Parameter mode: `nil` guesses it from the mean speed.
    public init(
        start: Instant, end: Instant, distance: Double, sampleCount: Int, startLatitude: Double,
        startLongitude: Double, endLatitude: Double, endLongitude: Double, mode: TravelMode? = nil
    ) {
        self.start = start
        self.end = end
        self.distance = distance
        self.sampleCount = sampleCount
        self.startLatitude = startLatitude
        self.startLongitude = startLongitude
        self.endLatitude = endLatitude
        self.endLongitude = endLongitude
        let seconds = (end - start).seconds
        self.mode = mode ?? TravelMode(meanSpeed: seconds > 0 ? distance / seconds : 0)
    }

    public var duration: Duration { end - start }
    /// Metres per second over the whole trip (0 for a trip without duration).
    public var meanSpeed: Double { duration.seconds > 0 ? distance / duration.seconds : 0 }
}

/// A stretch with no sample, longer than the gap threshold, that is neither a stay nor a trip.
public struct TimelineGap: Hashable, Sendable {
    /// The last sample before the gap.
    public var start: Instant
    /// The first sample after it.
    public var end: Instant
    /// Why, as far as the phone knows; empty means unexplained (the server never guesses).
    public var reasons: [GapInterval]

    public init(start: Instant, end: Instant, reasons: [GapInterval] = []) {
        self.start = start
        self.end = end
        self.reasons = reasons
    }

    public var explained: Bool { !reasons.isEmpty }
    public var duration: Duration { end - start }
}

/// One entry of a timeline, in time order.
public enum TimelineEntry: Hashable, Sendable {
    case stay(Stay)
    case trip(Trip)
    case gap(TimelineGap)

    public var start: Instant {
        switch self {
        case .stay(let stay): stay.start
        case .trip(let trip): trip.start
        case .gap(let gap): gap.start
        }
    }

    public var end: Instant {
        switch self {
        case .stay(let stay): stay.end
        case .trip(let trip): trip.end
        case .gap(let gap): gap.end
        }
    }
}
