import BackgroundCore
import LocationLog
import TrackGeometry

extension TimelineEntry {
    var isGap: Bool {
        if case .gap = self { true } else { false }
    }

    /// A gap with the phone's intervals that overlap it attached (each interval that starts before
    /// the gap ends and ends after it starts); any other entry as it is.
    func explained(by intervals: [GapInterval]) -> TimelineEntry {
        guard case .gap(var gap) = self else { return self }
        gap.reasons = intervals.filter { $0.start < gap.end && $0.end > gap.start }
        return .gap(gap)
    }
}
