import BackgroundCore
import LocationLog
import TrackGeometry

extension PageController {
    /// The day's segments without the points the clean-up rules flag (the same ``DayDetail`` pass
    /// the range map's stored flags come from, over the day's points), cut again at gaps, and the
    /// flagged points with their flags.
    static func excluding(_ segments: [[TrackSample]], rules: CleanupRules, maximumGap: Duration)
        -> (segments: [[TrackSample]], excluded: [(sample: TrackSample, flag: SampleFlag)])
    {
        let samples = Array(segments.joined())
        let inputs = samples.enumerated().map { index, sample in
            DetailInput(
                row: Int64(index),
                point: SampleValues(
                    time: sample.time, latitude: sample.latitude, longitude: sample.longitude, accuracy: sample.accuracy
                ))
        }
        var flags = [SampleFlag](repeating: .none, count: samples.count)
        for output in DayDetail.compute(inputs, before: nil, after: nil, rules: rules, maximumGap: maximumGap)
        where samples.indices.contains(Int(output.row)) {
            flags[Int(output.row)] = output.flag
        }
        var kept: [TrackSample] = []
        var excluded: [(sample: TrackSample, flag: SampleFlag)] = []
        for (sample, flag) in zip(samples, flags) {
            if flag == .none { kept.append(sample) } else { excluded.append((sample, flag)) }
        }
        guard !excluded.isEmpty else { return (segments, []) }
        return (Gaps.segments(of: kept, time: \.time, maximumGap: maximumGap), excluded)
    }
}
