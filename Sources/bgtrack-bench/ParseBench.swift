import ArgumentParser
import BackgroundCore
import Foundation
import LocationLog
import TrackServer

/// `bgtrack-bench parse`: the native route's parser alone (no HTTP, no store) on the server
/// benchmark's bodies, so its cost per point can be followed where the server figures are
/// dominated by fsync and noise: the best and the median of the passes, in µs per point, against
/// Foundation's `JSONDecoder` decoding the same bodies into the wire types (no validation) in the
/// same run; and ``JSONParser`` (the OwnTracks, Overland and OsmAnd routes' parser, and the
/// imports' records') against `JSONDecoder` into `JSONValue`, on the same bodies.
/// (For instruction counts, `valgrind --tool=callgrind` on `--repetitions 3` minus
/// `--repetitions 1`; valgrind 3.19 cannot run Swift 6.3 binaries, not even `--help`.)
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
        var passes: [Double] = []
        for _ in 0..<repetitions {
            let start = clock.now
            var accepted = 0
            for body in bodies {
                accepted += try parser.parseBody(body, device: "bench", now: now).samples.count
            }
            passes.append((clock.now - start).seconds)
            guard accepted == points else {
                throw ValidationError("the parser accepted \(accepted) of \(points) points")
            }
        }
        let measurement = Measurement(label: "parse only", seconds: passes)
        let decoder = JSONDecoder()
        let baseline = try Measurement.run("JSONDecoder", repetitions: repetitions) {
            var decoded = 0
            for body in bodies { decoded += try decoder.decode(BatchRequest.self, from: Data(body)).samples.count }
            guard decoded == points else { throw ValidationError("JSONDecoder read \(decoded) of \(points) points") }
        }
        // The general parser, bytes to `JSONValue`, against the library reaching the same value.
        var values = 0
        let general = try Measurement.run("JSONParser", repetitions: repetitions) {
            for body in bodies {
                if case .object = try JSONParser.parse(body) { values += 1 }
            }
        }
        let generalBaseline = try Measurement.run("JSONDecoder into JSONValue", repetitions: repetitions) {
            for body in bodies {
                if case .object = try decoder.decode(JSONValue.self, from: Data(body)) { values += 1 }
            }
        }
        guard values == 2 * (repetitions + 1) * bodies.count else {
            throw ValidationError("a body did not parse to a JSON object")
        }
        print(
            String(
                format: "parse only: %d points, %d passes: best %.2f µs per point, median %.2f", points, repetitions,
                measurement.best * 1e6 / Double(points), measurement.median * 1e6 / Double(points)))
        print(
            String(
                format: "baseline, JSONDecoder into BatchRequest (no validation): best %.2f µs per point, "
                    + "median %.2f; the parser takes %.2f× its time (best), %.2f× (medians)",
                baseline.best * 1e6 / Double(points), baseline.median * 1e6 / Double(points),
                measurement.best / baseline.best, measurement.median / baseline.median))
        print(
            String(
                format: "JSONParser into JSONValue, same bodies: best %.2f µs per point, median %.2f; JSONDecoder into "
                    + "JSONValue: best %.2f, median %.2f; the parser takes %.2f× its time (best), %.2f× (medians)",
                general.best * 1e6 / Double(points), general.median * 1e6 / Double(points),
                generalBaseline.best * 1e6 / Double(points), generalBaseline.median * 1e6 / Double(points),
                general.best / generalBaseline.best, general.median / generalBaseline.median))
    }
}
