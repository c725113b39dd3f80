import Foundation

extension BatchRequest {
    /// The batch format that carries gap intervals.
    public static let gapsVersion = 2
    /// At most this many gap intervals ride with one batch (the server refuses more); the rest
    /// wait for the next one.
    public static let maximumGaps = 100

    /// A batch with the phone's pending gap intervals: version 2 when there are any, else exactly
    /// the version-1 body an older server reads.
    public init(batch: String, device: String, samples: [WireSample], gaps: [WireGap]) {
        self.init(batch: batch, device: device, samples: samples)
        if !gaps.isEmpty {
            v = Self.gapsVersion
            self.gaps = gaps
        }
    }
}

extension LocationStore {
    /// The intervals to send with the next batch, sampling gaps and upload delays alike, as JSON
    /// (best effort: a store that cannot read them sends none and keeps them for a later batch).
    public func gapsForNextBatch() -> [WireGap] {
        ((try? pendingIntervals(limit: BatchRequest.maximumGaps)) ?? []).map { WireGap(id: $0.id, $0.interval) }
    }
}
