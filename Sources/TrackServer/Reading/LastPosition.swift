import BackgroundCore

extension SampleStore {
    /// The device's newest sample near the time it was last heard from, or `nil`: the index and
    /// share pages' markers and the alerts' last position.
    func lastPosition(device: String, seen: Instant) async throws -> TrackSample? {
        // Samples arrive up to an upload interval after they were taken: look back a few hours.
        try await samples(device: device, from: seen - .seconds(6 * 3600), to: seen + .seconds(300), limit: nil)
            .last
    }
}
