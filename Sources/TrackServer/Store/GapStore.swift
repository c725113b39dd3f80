public import BackgroundCore
public import LocationLog

/// Gap intervals (issue 24 item 3): why the phone took no samples, as it reported, and (issue 37
/// item 3) why its uploads waited; one table, the reason tells the kind.
public protocol GapStore: Sendable {
    /// Stores the phone's intervals in one transaction; an id the device already has is kept
    /// as it was (a re-sent batch). Throws ``TrackStoreError/unknownDevice(_:)``.
    func insertGaps(_ gaps: [IngestGap], device: String, at now: Instant) async throws
    /// The device's intervals of both kinds that overlap `from..<to` (`start < to` and
    /// `end > from`, or a zero-length one at `from`), ordered by start. Unknown device: none.
    /// A `no-network` stored from a phone before the split reads as an upload delay.
    func reportedIntervals(device: String, from: Instant, to: Instant) async throws -> [ReportedInterval]
}

extension GapStore {
    /// The device's sampling gaps that overlap `from..<to`, ordered by start.
    public func gapIntervals(device: String, from: Instant, to: Instant) async throws -> [GapInterval] {
        try await reportedIntervals(device: device, from: from, to: to).compactMap(\.gap)
    }

    /// The device's upload delays that overlap `from..<to`, ordered by start.
    public func uploadDelays(device: String, from: Instant, to: Instant) async throws -> [UploadDelay] {
        try await reportedIntervals(device: device, from: from, to: to).compactMap(\.delay)
    }
}
