import BackgroundCore
import LocationLog
import TrackServer

extension GatedStore {
    func insertGaps(_ gaps: [IngestGap], device: String, at now: Instant) async throws {
        try await base.insertGaps(gaps, device: device, at: now)
    }

    func gapIntervals(device: String, from: Instant, to: Instant) async throws -> [GapInterval] {
        try await base.gapIntervals(device: device, from: from, to: to)
    }
}
