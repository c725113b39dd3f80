import ArgumentParser

/// Release-build benchmarks: `swift run --package-path Tools -c release bgtrack-bench <name>`.
///
/// Each benchmark measures its subject and a baseline in the same run and reports the ratio, so
/// the figures stay comparable on a shared, noisy machine. Nothing here asserts a time limit.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bgtrack-bench",
        abstract: "Benchmarks for BackgroundTracker (run them with -c release).",
        subcommands: [
            CompareBenchmark.self, StoreBench.self, ServerBench.self, PostgresBench.self, SinglePointBench.self,
            SimplifyBench.self, ParseBench.self, HealthBench.self, ReadsBench.self, YearMapBench.self, ImportBench.self,
            ImportGenBench.self, TimelineBench.self, BackfillBench.self, BackfillReadBench.self,
        ]
    )
}
