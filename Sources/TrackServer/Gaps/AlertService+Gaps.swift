import BackgroundCore
import LocationLog

extension AlertService {
    /// The phone's reported reasons for a silence (its sampling gaps, and its upload delays: a
    /// phone without a network samples but is not heard), in words with UTC times, or `nil` when
    /// it reported none: for `silent`, the intervals from a threshold before its last contact on;
    /// for `back`, those from a threshold before the silence began (its last contact) to now.
    func silenceReasons(_ transition: AlertRules.Transition, devices: [DeviceRecord], at now: Instant)
        async throws -> [String]?
    {
        let silentSince = devices.first { $0.name == transition.device }?.silentSince
        let lastContact = transition.kind == .back ? (silentSince ?? transition.lastSeen) : transition.lastSeen
        let intervals = try await environment.store.reportedIntervals(
            device: transition.device, from: lastContact - transition.threshold - transition.threshold, to: now)
        guard !intervals.isEmpty else { return nil }
        return intervals.suffix(20).map { interval in
            let words =
                switch interval {
                case .gap(let gap): GapWords.sentence(gap)
                case .delay(let delay): GapWords.sentence(delay)
                }
            return "\(interval.start.iso8601)–\(interval.end.iso8601): " + words
        }
    }
}
