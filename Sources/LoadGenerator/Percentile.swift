/// Percentiles of sorted samples, nearest rank: a sorted array keeps memory bounded by one value
/// per request (6 million requests are 24 MB as microseconds).
package enum Percentile {
    /// The value at `fraction` (0…1) of `sorted`, `nil` when it is empty.
    package static func of<T>(_ sorted: [T], _ fraction: Double) -> T? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((Double(sorted.count - 1) * min(1, max(0, fraction))).rounded())
        return sorted[min(sorted.count - 1, rank)]
    }

    /// A duration in whole microseconds, clamped to `UInt32` (71 minutes).
    package static func microseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return UInt32(clamping: max(0, micros))
    }
}
