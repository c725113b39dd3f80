import BackgroundCore
public import LocationLog

/// Judges the timeline against the simulator's truth: one simulated run (the real phone store
/// and sync, uploading to a `CollectingPeer`), the samples the server received run through
/// `TimelineBuilder`, the result scored against the scenario's movement.
public enum TimelineEvaluation {
    /// One run: the detected timeline and its score.
    public struct Run: Sendable {
        public var entries: [TimelineEntry]
        public var score: TimelineScore
        public var samples: Int
    }

    /// Simulates `configuration` and scores the timeline built from what reached the server.
    public static func run(_ configuration: SimulationConfiguration, settings: TimelineSettings) -> Run {
        var configuration = configuration
        let peer = CollectingPeer()
        configuration.peer = peer
        var simulation = Simulation(configuration)
        _ = simulation.run()
        let samples = peer.samples
        let entries = timeline(of: samples, settings: settings)
        let scenario = configuration.scenario
        let truth = scenario.track.truth(
            from: scenario.start, to: scenario.start + scenario.duration, minimumStay: settings.minimumStay)
        return Run(
            entries: entries, score: TimelineScore(entries: entries, truth: truth, radius: settings.stayRadius),
            samples: samples.count)
    }

    /// The closed timeline of time-ordered samples.
    public static func timeline(of samples: [Sample], settings: TimelineSettings) -> [TimelineEntry] {
        var builder = TimelineBuilder(settings: settings)
        var entries: [TimelineEntry] = []
        for sample in samples { entries += builder.add(TimelinePoint(sample)) }
        return entries + builder.finish()
    }
}
