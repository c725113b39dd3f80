public import BackgroundCore

/// The one gap condition the store cannot keep itself: while the phone's storage is full nothing
/// can be written, so the shell keeps the condition in memory from the first sample the store
/// refused, and the store records the interval in the transaction of the next sample it stores
/// (``LocationStore/append(_:trigger:state:power:storageFull:)``). A process that dies meanwhile
/// forgets it, as it forgets everything in memory; the next launch explains that silence.
///
/// ```swift
/// var storageFull = StorageFullWatch()   // the app's memory, beside the keep-alive machine
/// try store.append(fix, trigger: .timer, state: .background, storageFull: &storageFull)
/// ```
public struct StorageFullWatch: Hashable, Sendable {
    /// When the first sample was refused for a full disk; `nil` while samples are stored.
    public private(set) var since: Instant?
    /// How many samples were refused since then.
    public private(set) var refusedSamples = 0

    public init() {}

    /// A sample write failed with `error` at `time`: a full disk opens the condition (or counts
    /// one more refused sample); any other failure is not this condition and changes nothing.
    public mutating func sampleRefused(_ error: StoreError, at time: Instant) {
        guard error.isDiskFull else { return }
        if since == nil { since = time }
        refusedSamples += 1
    }

    /// The interval from the first refused sample until `end`, when the storage was full.
    public func interval(until end: Instant) -> GapInterval? {
        guard let since else { return nil }
        let words = refusedSamples == 1 ? "1 sample" : "\(refusedSamples) samples"
        return GapInterval(
            start: min(since, end), end: end, reason: .storageFull, detail: "\(words) could not be stored")
    }
}
