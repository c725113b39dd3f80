import BackgroundCore
import Foundation

extension BatchRequest {
    /// The batch format that carries gap intervals.
    public static let gapsVersion = 2
    /// The batch format that carries the phone's time zone, `tz` (and may carry gaps).
    public static let timeZoneVersion = 3
    /// The batch format whose samples may carry `vacc`, the vertical accuracy (and may carry a
    /// zone and gaps).
    public static let verticalAccuracyVersion = 4
    /// At most this many gap intervals ride with one batch (the server refuses more); the rest
    /// wait for the next one.
    public static let maximumGaps = 100

    /// A batch with the phone's pending gap intervals and its time zone: version 4 when a sample
    /// has a vertical accuracy, else 3 with a zone, 2 with gaps alone, else exactly the version-1
    /// body an older server reads.
    public init(batch: String, device: String?, samples: [WireSample], gaps: [WireGap], timeZone: String? = nil) {
        self.init(batch: batch, device: device, samples: samples)
        if !gaps.isEmpty {
            v = Self.gapsVersion
            self.gaps = gaps
        }
        if let timeZone {
            v = Self.timeZoneVersion
            tz = timeZone
        }
        if samples.contains(where: { $0.verticalAccuracy != nil }) { v = Self.verticalAccuracyVersion }
    }
}

extension LocationStore {
    /// The intervals to send with the next batch, sampling gaps and upload delays alike, as JSON
    /// (best effort: a store that cannot read them sends none and keeps them for a later batch).
    public func gapsForNextBatch() -> [WireGap] {
        ((try? pendingIntervals(limit: BatchRequest.maximumGaps)) ?? []).map { WireGap(id: $0.id, $0.interval) }
    }
}
