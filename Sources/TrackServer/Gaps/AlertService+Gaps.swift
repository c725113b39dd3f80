import BackgroundCore
import LocationLog

extension TrackServerEnvironment {
    /// The phone's reported reasons for a silence, in words with UTC times, or `nil` when it
    /// reported none: for `silent`, the intervals from a threshold before its last contact on;
    /// for `back`, those from a threshold before the silence began (its last contact) to now.
    func silenceReasons(_ transition: AlertRules.Transition, devices: [DeviceRecord], at now: Instant)
        async throws -> [String]?
    {
        let silentSince = devices.first { $0.name == transition.device }?.silentSince
        let lastContact = transition.kind == .back ? (silentSince ?? transition.lastSeen) : transition.lastSeen
        let gaps = try await store.gapIntervals(
            device: transition.device, from: lastContact - transition.threshold - transition.threshold, to: now)
        guard !gaps.isEmpty else { return nil }
        return gaps.suffix(20).map { "\($0.start.iso8601)–\($0.end.iso8601): " + GapWords.sentence($0) }
    }
}
