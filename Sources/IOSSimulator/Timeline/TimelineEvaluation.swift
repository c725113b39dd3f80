package import BackgroundCore
package import LocationLog
package import TrackGeometry

/// Judges the timeline against the simulator's truth: one simulated run (the real phone store
/// and sync, uploading through the run's peer to a server), the timeline that server derived read
/// back, and scored against the scenario's movement.
///
/// The simulator knows no server: the caller connects each run to one (`bgtrack-bench timeline`
/// and the tests start a real `TrackServer` on loopback and read `GET /v1/devices/{id}/timeline`).
package enum TimelineEvaluation {
    /// One run: the detected timeline and its score.
    package struct Run: Sendable {
        package var entries: [TimelineEntry]
        package var score: TimelineScore
        package var samples: Int
    }

    /// Simulates `configuration` with its phone uploading through `connection.peer`, then reads
    /// the timeline over the scenario's span from `connection` and scores it.
    package static func run(
        _ configuration: SimulationConfiguration, settings: TimelineSettings, connection: TimelineConnection
    ) throws -> Run {
        var configuration = configuration
        configuration.peer = connection.peer
        var simulation = Simulation(configuration)
        _ = simulation.run()
        let scenario = configuration.scenario
        let end = scenario.start + scenario.duration
        let entries = try connection.timeline(scenario.start, end)
        let truth = scenario.track.truth(from: scenario.start, to: end, minimumStay: settings.minimumStay)
        return Run(
            entries: entries, score: TimelineScore(entries: entries, truth: truth, radius: settings.stayRadius),
            samples: connection.peer.acknowledgedSampleCount)
    }

    /// The closed timeline of time-ordered samples, built offline (what a server's incremental
    /// timeline must agree with).
    package static func timeline(of samples: [Sample], settings: TimelineSettings) -> [TimelineEntry] {
        var builder = TimelineBuilder(settings: settings)
        var entries: [TimelineEntry] = []
        for sample in samples { entries += builder.add(sample.values) }
        return entries + builder.finish()
    }
}

/// Where one evaluation run's phone uploads and where the timeline it produced is read: a device
/// of its own on a server.
package struct TimelineConnection: Sendable {
    /// The phone's network: the server's real ingest.
    package var peer: any SimulatedNetworkPeer
    /// The stays, trips and gaps the server derived for the run's device over `from..<to`, in
    /// time order (the open entry last).
    package var timeline: @Sendable (_ from: Instant, _ to: Instant) throws -> [TimelineEntry]
    /// The samples the server stored for the run's device over `from..<to`, in time order, each
    /// with what triggered it (for looking at a miss sample by sample).
    package var samples: @Sendable (_ from: Instant, _ to: Instant) throws -> [(point: SampleValues, trigger: String?)]

    package init(
        peer: any SimulatedNetworkPeer, timeline: @escaping @Sendable (Instant, Instant) throws -> [TimelineEntry],
        samples: @escaping @Sendable (Instant, Instant) throws -> [(point: SampleValues, trigger: String?)] = {
            _, _ in []
        }
    ) {
        self.peer = peer
        self.timeline = timeline
        self.samples = samples
    }
}
