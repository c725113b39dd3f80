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
@dynamicMemberLookup
public struct Sample: Hashable, Sendable, Identifiable {
    public var id: UUID
    /// Per-device monotonic counter, starting at 1.
    public var seq: Int64
    /// The measured values (`SampleValues`, the one list of a sample's fields); they read
    /// through: `sample.latitude`, `sample.verticalAccuracy`.
    public var values: SampleValues
    public var trigger: SampleTrigger
    public var state: SampleAppState

    public init(
        id: UUID, seq: Int64, values: SampleValues, trigger: SampleTrigger = .timer,
        state: SampleAppState = .background
    ) {
        self.id = id
        self.seq = seq
        self.values = values
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
        var values = fix.values
        values.battery = power.battery
        values.charging = power.charging
        self.init(id: id, seq: seq, values: values, trigger: trigger, state: state)
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<SampleValues, Value>) -> Value {
        get { values[keyPath: keyPath] }
        set { values[keyPath: keyPath] = newValue }
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
