/// Decides which location fixes become samples: one accepted fix per sampling slot, and at most
/// one more where the user set off.
///
/// Time is cut into slots of `interval`, aligned to the epoch. A fix is checked (position
/// ranges, 0,0, accuracy, staleness) and, when it is good and its slot has no sample yet, it is
/// accepted. A departure fix (`.departure`, asked for when the motion coprocessor reports that
/// the user set off) is accepted even in a slot that has its sample, once per slot: without it
/// a trip's first leg runs from the last still sample, up to a slot before the person left, as
/// a straight line to the next slot's fix. Keep-alive strategies ask `nextSlot(after:)` when to
/// wake for the next fix; the shell stores what `.accept` carries and logs what `.reject` says.
///
/// ```swift
/// var sampling = SamplingMachine(configuration: .init(interval: .seconds(120)))
/// for action in sampling.handle(.fix(fix, trigger: .timer, state: .background), at: now) { … }
/// ```
public struct SamplingMachine: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// Time between samples; 30 s…1 h.
        public var interval: Duration
        /// Fixes with a worse horizontal accuracy (metres) are rejected.
        public var maximumAccuracy: Double

        /// The smallest and largest allowed sampling interval.
        public static let allowedIntervals: ClosedRange<Duration> = .seconds(30) ... .seconds(3600)

        public init(interval: Duration = .seconds(120), maximumAccuracy: Double = 200) {
            self.interval = interval
            self.maximumAccuracy = maximumAccuracy
        }

        /// Checks the values; the message names the setting, the value and the allowed range.
        public func validate() throws(ConfigurationError) {
            guard Self.allowedIntervals.contains(interval) else {
                throw ConfigurationError(
                    "sampling interval \(Int(interval.seconds)) s is outside the allowed 30…3600 s")
            }
            guard maximumAccuracy.isFinite, maximumAccuracy > 0 else {
                throw ConfigurationError(
                    "maximum accuracy \(maximumAccuracy) m must be a positive number of metres")
            }
        }

        /// Fixes older than this when they arrive are stale.
        public var staleness: Duration { interval * 2 }
    }

    public enum Event: Hashable, Sendable {
        /// Sampling begins; the first slot starts now.
        case start
        /// A provider delivered a fix.
        case fix(LocationFix, trigger: SampleTrigger, state: SampleAppState)
        /// The fix asked for when the user set off: the slot's sample if the slot has none, else
        /// one extra sample in the slot (trigger `motion` either way).
        case departure(LocationFix, state: SampleAppState)
    }

    public enum Action: Hashable, Sendable {
        /// Store this fix as a sample; the value carries the slot it fills.
        case accept(AcceptedFix)
        /// The fix is unusable; log the reason.
        case reject(LocationFix, FixRejection)
    }

    /// Before `.start` only restored slots are known; once started, slots wait for their fix.
    ///
    /// Either way the machine remembers the most recently filled slots, newest last. A short
    /// memory rather than "the last slot", so a clock set back (or a late fix for an empty earlier
    /// slot) is sampled again at once instead of being counted as surplus until time catches up.
    private enum State: Sendable {
        case notStarted(filled: [Int64])
        case sampling(filled: [Int64])

        var filled: [Int64] {
            switch self {
            case .notStarted(let filled), .sampling(let filled): filled
            }
        }
    }

    public let configuration: Configuration
    private var state = State.notStarted(filled: [])
    private static let filledSlotMemory = 8
    /// The slots that took a departure fix beyond their own sample, newest last (short memory).
    private var departureSlots: [Int64] = []
    /// Fixes that were fine but arrived in a slot that already had a sample.
    public private(set) var surplusFixes = 0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The index of the slot that contains `instant`. Slots are aligned to whole multiples of the
    /// interval since the epoch, so they stay the same across relaunches of the app.
    public func slot(containing instant: Instant) -> Int64 {
        let width = configuration.interval.wholeMilliseconds
        let offset = instant.milliseconds
        return offset >= 0 ? offset / width : (offset - width + 1) / width
    }

    /// When the slot after the one containing `now` begins: the next time a fix is wanted.
    public func nextSlot(after now: Instant) -> Instant {
        Instant(milliseconds: (slot(containing: now) + 1) * configuration.interval.wholeMilliseconds)
    }

    /// Whether sampling has started and the slot containing `now` still waits for its sample.
    public func needsFix(at now: Instant) -> Bool {
        guard case .sampling(let filled) = state else { return false }
        return !filled.contains(slot(containing: now))
    }

    /// Whether sampling has started and the slot containing `now` may still take a departure fix.
    public func acceptsDeparture(at now: Instant) -> Bool {
        guard case .sampling = state else { return false }
        return !departureSlots.contains(slot(containing: now))
    }

    /// Tells a freshly launched machine which slot the store's newest sample filled, so a relaunch
    /// does not take a second sample in the same slot.
    public mutating func restore(lastSampleAt instant: Instant) {
        fill(slot(containing: instant))
    }

    private mutating func fill(_ slot: Int64) {
        var filled = state.filled
        guard !filled.contains(slot) else { return }
        filled.append(slot)
        if filled.count > Self.filledSlotMemory { filled.removeFirst() }
        switch state {
        case .notStarted: state = .notStarted(filled: filled)
        case .sampling: state = .sampling(filled: filled)
        }
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Action] {
        switch event {
        case .start:
            state = .sampling(filled: state.filled)
            return []
        case .fix(let fix, let trigger, let state):
            return take(fix, trigger: trigger, state: state, at: now)
        case .departure(let fix, let state):
            return take(fix, trigger: .motion, state: state, at: now)
        }
    }

    /// Checks `fix` and accepts it into its slot if the slot has no sample yet, or, for a
    /// departure (trigger `motion`), once more beyond the slot's own.
    private mutating func take(_ fix: LocationFix, trigger: SampleTrigger, state: SampleAppState, at now: Instant)
        -> [Action]
    {
        if let rejection = check(fix, at: now) {
            return [.reject(fix, rejection)]
        }
        let slot = slot(containing: fix.timestamp)
        if self.state.filled.contains(slot) {
            guard trigger == .motion, !departureSlots.contains(slot) else {
                surplusFixes += 1
                return []
            }
            departureSlots.append(slot)
            if departureSlots.count > Self.filledSlotMemory { departureSlots.removeFirst() }
        } else {
            fill(slot)
        }
        return [.accept(AcceptedFix(fix, trigger: trigger, state: state, slot: slot))]
    }

    /// The first rule the fix breaks, or `nil` when it may become a sample.
    public func check(_ fix: LocationFix, at now: Instant) -> FixRejection? {
        for (name, value) in [
            ("latitude", fix.latitude), ("longitude", fix.longitude), ("horizontal accuracy", fix.horizontalAccuracy),
        ]
        where !value.isFinite {
            return .notFinite(field: name)
        }
        for field in SampleValues.Field.measurements {
            guard let value = fix.values.measurement(field), !value.isFinite, let rule = SampleRuleSet.rule(for: field)
            else { continue }
            return .notFinite(field: rule.name)
        }
        do {
            try SampleRuleSet.checkPosition(latitude: fix.latitude, longitude: fix.longitude)
        } catch {
            return .breaksRule(error)
        }
        if fix.horizontalAccuracy <= 0 { return .accuracyInvalid(fix.horizontalAccuracy) }
        // An approximate fix is as good as the app can get: kept, and marked by its radius.
        if fix.horizontalAccuracy > configuration.maximumAccuracy, !fix.isApproximate {
            return .tooInaccurate(accuracy: fix.horizontalAccuracy, limit: configuration.maximumAccuracy)
        }
        let age = now - fix.timestamp
        if age > configuration.staleness { return .stale(age: age, limit: configuration.staleness) }
        if age < .seconds(-60) { return .inTheFuture(ahead: .zero - age) }
        do {
            // The rest of the sample rules, on what the store keeps: a negative speed, course or
            // vertical accuracy is a provider's "unknown" and is stored as unknown.
            try SampleRuleSet.check(fix.values.withoutUnknownSentinels, receivedAt: now)
        } catch {
            return .breaksRule(error)
        }
        return nil
    }
}

/// A configuration value is outside what the library supports.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
