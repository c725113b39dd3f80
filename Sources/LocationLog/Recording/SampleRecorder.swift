public import BackgroundCore

/// Turns provider fixes into stored samples: the sampling machine's rules plus the store, with
/// disk-full handling. The shell (keep-alive strategy, Linux device) calls `record` per fix.
///
/// A full disk pauses sampling: the recorder logs one diagnostic, asks the shell to tell the
/// user once (``UserNotice/storageFull`` in `notices`), `wantsFixes(at:)` turns false (so the
/// shell can stop location updates and save energy), and after `pauseRetry` it tries again, or
/// sooner when the shell learns that space came back (``resume(at:)``). Nothing throws out of
/// `record`: a phone must never crash because its disk is full. The first sample stored again
/// records the interval as a ``GapReason/storageFull`` gap and ends the pause.
///
/// ```swift
/// var recorder = SampleRecorder(store: store, sampling: .init(interval: .seconds(120)))
/// switch recorder.record(fix, trigger: .timer, state: .background, at: now) { … }
/// ```
public struct SampleRecorder: Sendable {
    public enum Result: Hashable, Sendable {
        /// Stored durably.
        case stored(Sample)
        /// The fix broke a sampling rule; the reason went to the diagnostics log.
        case rejected(FixRejection)
        /// Good, but its slot already had a sample.
        case surplus
        /// Not stored: the store failed (disk full pauses sampling). The message says why.
        case notStored(StoreError)
        /// Sampling is paused after a full disk; the fix was ignored.
        case paused
    }

    public let store: LocationStore
    public private(set) var sampling: SamplingMachine
    /// How long sampling pauses after a full disk before trying again.
    public var pauseRetry: Duration
    /// Until when sampling is paused, or `nil`.
    public private(set) var pausedUntil: Instant?
    /// Since when the disk refused samples, until one is stored again (then the store records the
    /// interval as ``GapReason/storageFull``).
    public private(set) var storageFull = StorageFullWatch()
    /// What to tell the user, oldest first; the shell shows them and empties it (``takeNotices()``).
    public private(set) var notices: [UserNotice] = []

    public init(
        store: LocationStore, sampling: SamplingMachine.Configuration = .init(), pauseRetry: Duration = .seconds(600)
    ) {
        self.store = store
        self.sampling = SamplingMachine(configuration: sampling)
        self.pauseRetry = pauseRetry
    }

    /// Starts the first sampling slot.
    ///
    /// The slot of the newest stored sample counts as filled, so a relaunch inside that slot does
    /// not take a second sample in it. A sample dated after `now` (the clock was set back) is not
    /// trusted for this: it would stop sampling until the clock caught up.
    public mutating func start(at now: Instant) {
        if let newest = try? store.newestSampleTime(), newest <= now {
            sampling.restore(lastSampleAt: newest)
        }
        _ = sampling.handle(.start, at: now)
    }

    /// Whether the shell should deliver a fix now (a slot waits for one and sampling is not paused).
    public func wantsFix(at now: Instant) -> Bool {
        if isPaused(at: now) { return false }
        return sampling.needsFix(at: now)
    }

    /// Paused until `pausedUntil`; a pause that reaches further than `pauseRetry` ahead means the
    /// clock was set back, and ends rather than stretching by however far the clock moved.
    private func isPaused(at now: Instant) -> Bool {
        guard let pausedUntil else { return false }
        return now < pausedUntil && pausedUntil - now <= pauseRetry
    }

    /// The shell learned that the store takes writes again (an acknowledgement it could not
    /// write was written, so space came back): a pause for a full disk ends now rather than at
    /// its retry time. The storage-full interval stays open until a sample is stored.
    public mutating func resume(at now: Instant) {
        guard let pausedUntil, now < pausedUntil else { return }
        self.pausedUntil = nil
        try? store.log(.info, "sampling resumes: the store took a write again", at: now)
    }

    /// The notices waiting to be shown, oldest first; the recorder forgets them.
    public mutating func takeNotices() -> [UserNotice] {
        defer { notices = [] }
        return notices
    }

    public mutating func record(
        _ fix: LocationFix, trigger: SampleTrigger, state: SampleAppState, power: PowerContext = .unknown,
        at now: Instant
    ) -> Result {
        if isPaused(at: now) { return .paused }
        for action in sampling.handle(.fix(fix, trigger: trigger, state: state), at: now) {
            switch action {
            case .reject(_, let rejection):
                try? store.log(.info, "fix rejected: \(rejection)", at: now)
                return .rejected(rejection)
            case .accept(let accepted):
                do {
                    let sample = try store.append(
                        accepted.fix, trigger: accepted.trigger, state: accepted.state, power: power,
                        storageFull: &storageFull)
                    if pausedUntil != nil {
                        pausedUntil = nil
                        try? store.log(.info, "sampling resumed: the store accepts writes again", at: now)
                    }
                    return .stored(sample)
                } catch {
                    if error.isDiskFull {
                        let wasPaused = pausedUntil != nil
                        pausedUntil = now + pauseRetry
                        // Best effort: with a full disk the diagnostic itself may not fit.
                        if !wasPaused {
                            try? store.log(
                                .error, "sampling paused for \(Int(pauseRetry.seconds)) s: \(error)", at: now)
                        }
                        // Once per full-disk interval, not at every retry.
                        if storageFull.refusedSamples == 1 { notices.append(.storageFull) }
                    }
                    return .notStored(error)
                }
            }
        }
        return .surplus
    }
}
