import BackgroundCore
import LocationLog
import TrackServer

extension GatedStore {
    func insertGaps(_ gaps: [IngestGap], device: String, at now: Instant) async throws {
        try await base.insertGaps(gaps, device: device, at: now)
    }

    func reportedIntervals(device: String, from: Instant, to: Instant) async throws -> [ReportedInterval] {
        try await base.reportedIntervals(device: device, from: from, to: to)
    }
}
