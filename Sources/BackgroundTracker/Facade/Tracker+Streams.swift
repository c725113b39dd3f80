public import Foundation
public import LocationLog

/// One upload as the app sees it: when it was answered, how many samples it carried, and what
/// became of them.
public struct UploadResult: Hashable, Sendable {
    /// When the answer was applied.
    public var finishedAt: Date
    /// The samples the batch carried.
    public var sent: Int
    /// The server's answer (or the network's failure).
    public var outcome: UploadOutcome

    /// Whether the server answered for the samples (stored, duplicates or refused ones alike);
    /// they have left the phone's store.
    public var isAcknowledged: Bool {
        if case .acknowledged = outcome { return true }
        return false
    }

    public init(finishedAt: Date, sent: Int, outcome: UploadOutcome) {
        self.finishedAt = finishedAt
        self.sent = sent
        self.outcome = outcome
    }
}

extension Tracker {
    /// Every sample as it is stored on the phone, for as long as the caller iterates (in the
    /// style of `CLLocationUpdate.liveUpdates()`): draw the track live without polling.
    ///
    /// ```swift
    /// for await sample in tracker.storedSamples { path.append(sample.coordinate) }
    /// ```
    ///
    /// A reader that falls behind keeps the newest 1,000; `recentSamples(limit:)` reads the
    /// store itself.
    public var storedSamples: AsyncStream<Sample> { sampleBroadcast.stream() }

    /// Every upload's result as the answer is applied (the newest 100 for a slow reader).
    public var uploadResults: AsyncStream<UploadResult> { uploadBroadcast.stream() }
}
