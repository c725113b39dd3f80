import ArgumentParser
import BackgroundCore
import Foundation
import LocationLog
import TrackServer

/// `bgtrack-bench parse`: the native route's parser alone (no HTTP, no store) on the server
/// benchmark's bodies, so its cost per point can be measured where wall-clock figures are noisy:
/// under `valgrind --tool=callgrind`, the instructions of `--repetitions 3` minus those of
/// `--repetitions 1`, divided by twice the points, are the parser's instructions per point.
struct ParseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse", abstract: "The native batch parser alone, on the server benchmark's bodies.")

    @Option(help: "Points per pass.") var points = 10_000
    @Option(help: "Points per batch.") var batch = 500
    @Option(help: "Passes over every body.") var repetitions = 3

    func run() throws {
        let samples = ServerBench.samples(count: points)
        let encoder = JSONEncoder()
        let bodies = try stride(from: 0, to: samples.count, by: batch).map { start in
            let slice = Array(samples[start..<min(start + batch, samples.count)])
            return [UInt8](try encoder.encode(BatchRequest(batch: UUID(), device: "bench", samples: slice)))
        }
        let parser = NativeBatchParser(maxSamples: 1_000)
        let now = Instant(milliseconds: 1_800_000_000_000)
        let clock = ContinuousClock()
        let start = clock.now
        var accepted = 0
        for _ in 0..<repetitions {
            for body in bodies {
                accepted += try parser.parseBody(body, device: "bench", now: now).samples.count
            }
        }
        let seconds = (clock.now - start).seconds
        guard accepted == points * repetitions else {
            throw ValidationError("the parser accepted \(accepted) of \(points * repetitions) points")
        }
        print(
            String(
                format: "parse only: %d points × %d passes in %.3f s: %.2f µs per point", points, repetitions, seconds,
                seconds * 1e6 / Double(points * repetitions)))
    }
}
