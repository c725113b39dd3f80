public import BackgroundCore
public import Foundation

/// One stored location sample: a fix that passed the sampling rules, with the phone's context.
///
/// `id` is minted when the sample is stored and never changes, so a batch can be re-sent safely:
/// the server recognises ids it already has and answers them as duplicates. `seq` is a per-device
/// counter, allocated in the same transaction as the insert; a gap in `seq` on the server reveals
/// loss. Optional fields are `nil` when unknown, never 0 or -1.
///
/// ```swift
/// let sample = Sample(id: UUID(), seq: 1, fix: fix, trigger: .timer, state: .background)
/// ```
public struct Sample: Hashable, Sendable, Identifiable {
    public var id: UUID
    /// Per-device monotonic counter, starting at 1.
    public var seq: Int64
    /// When the position was measured (epoch milliseconds, UTC).
    public var time: Instant
    /// Degrees, -90…90.
    public var latitude: Double
    /// Degrees, -180…180.
    public var longitude: Double
    /// Horizontal accuracy radius in metres.
    public var accuracy: Double?
    /// Metres above sea level.
    public var altitude: Double?
    /// Metres per second.
    public var speed: Double?
    /// Degrees clockwise from true north.
    public var course: Double?
    /// Battery level 0…1.
    public var battery: Double?
    /// Whether the phone was charging.
    public var charging: Bool?
    public var trigger: SampleTrigger
    public var state: SampleAppState

    public init(
        id: UUID,
        seq: Int64,
        time: Instant,
        latitude: Double,
        longitude: Double,
        accuracy: Double? = nil,
        altitude: Double? = nil,
        speed: Double? = nil,
        course: Double? = nil,
        battery: Double? = nil,
        charging: Bool? = nil,
        trigger: SampleTrigger = .timer,
        state: SampleAppState = .background
    ) {
        self.id = id
        self.seq = seq
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.battery = battery
        self.charging = charging
        self.trigger = trigger
        self.state = state
    }

    /// A sample from a fix the sampling machine accepted, plus the phone's power context.
    public init(
        id: UUID,
        seq: Int64,
        fix: LocationFix,
        trigger: SampleTrigger,
        state: SampleAppState,
        power: PowerContext = .unknown
    ) {
        self.init(
            id: id, seq: seq, time: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
            accuracy: fix.horizontalAccuracy, altitude: fix.altitude, speed: fix.speed, course: fix.course,
            battery: power.battery, charging: power.charging, trigger: trigger, state: state)
    }
}

/// Battery level and charging state when a sample was taken; `nil` when the platform did not say.
public struct PowerContext: Hashable, Sendable {
    /// 0…1.
    public var battery: Double?
    public var charging: Bool?

    public init(battery: Double? = nil, charging: Bool? = nil) {
        self.battery = battery
        self.charging = charging
    }

    public static let unknown = PowerContext()
}
