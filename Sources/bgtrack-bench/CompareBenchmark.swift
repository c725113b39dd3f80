import ArgumentParser
import BackgroundCore
import IOSShellHost
import IOSSimulator

/// How long the whole `bgtrack compare` matrix takes as the command runs it (the iOS shell on
/// every profile), against a bare event queue carrying the same number of events (the floor any
/// discrete-event simulator pays).
struct CompareBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare", abstract: "Time the full 24 h compare matrix (issue 3: under 10 s).")

    @Option(help: "Simulated hours per run.")
    var hours: Double = 24

    @Option(help: "Timed repetitions.")
    var repetitions: Int = 5

    /// On the main actor: the iOS shell is main-thread code, like UIKit.
    func run() async throws {
        await MainActor.run { measure() }
    }

    @MainActor
    private func measure() {
        let configurations = Comparison.configurations(hours: hours, seed: 1, app: IOSShell())
        var events = 0
        let matrix = Measurement.run("compare matrix through the shell (bgtrack compare)", repetitions: repetitions) {
            events = Comparison.run(configurations).reduce(0) { $0 + $1.events }
        }
        var sink: Int64 = 0
        let baseline = Measurement.run("bare event queue, same event count", repetitions: repetitions) {
            var queue = EventQueue<Int>()
            var random = SeededRandom(seed: 1)
            var now: Int64 = 0
            for index in 0..<events {
                queue.push(index, at: Instant(milliseconds: now + Int64(random.next() % 600_000)))
                if index % 4 == 3 {
                    for _ in 0..<4 {
                        if let (time, value) = queue.pop() {
                            now = time.milliseconds
                            sink &+= Int64(value)
                        }
                    }
                }
            }
            while let (_, value) = queue.pop() { sink &+= Int64(value) }
        }
        let runs = configurations.count
        let simulatedHours = Double(runs) * hours
        print(
            "runs: \(runs) (\(StrategyName.allCases.count) strategies × \(IOSProfile.supportedVersions.count) iOS × 2 auth), \(hours) h each"
        )
        print("events processed per matrix: \(events)")
        print(row(matrix))
        print(row(baseline))
        print("simulated hours per wall-clock second (bgtrack compare): \(Int(simulatedHours / matrix.median))")
        print("bgtrack compare median vs the 10 s target: \((matrix.median / 10).rounded(toPlaces: 4))×")
        print(
            "bgtrack compare vs bare event queue (same events): \((matrix.median / baseline.median).rounded(toPlaces: 1))×"
        )
        if sink == 42 { print("") }  // keeps the baseline's work observable
    }

    private func row(_ measurement: Measurement) -> String {
        "\(measurement.label): median \((measurement.median * 1000).rounded(toPlaces: 1)) ms, best \((measurement.best * 1000).rounded(toPlaces: 1)) ms over \(measurement.seconds.count) runs"
    }
}
