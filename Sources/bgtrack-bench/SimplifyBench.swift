import ArgumentParser
import BackgroundCore
import Foundation
import LocationLog
import TrackGeometry

/// `bgtrack-bench simplify`: Douglas–Peucker on a 1-million-point track (what `?simplify=` does to a
/// long track before drawing it) against one linear pass over the same points doing the work of
/// its first level (project every point, measure it against the chord), in the same run; then a
/// check that every dropped point lies within the tolerance of the kept segment spanning it.
struct SimplifyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simplify", abstract: "Track simplification of 1 M points against one linear pass.")

    @Option(help: "Points in the track.") var points = 1_000_000
    @Option(parsing: .upToNextOption, help: "Tolerances in metres.") var tolerances = [2.0, 10.0, 50.0]
    @Option(help: "Timed repetitions (after one warm-up).") var repetitions = 5

    func validate() throws {
        guard (3...20_000_000).contains(points) else { throw ValidationError("--points must be in 3…20,000,000") }
        guard !tolerances.isEmpty, tolerances.allSatisfy({ $0 > 0 && $0 <= 100_000 }) else {
            throw ValidationError("--tolerances must be metres in (0, 100000]")
        }
        guard (1...100).contains(repetitions) else { throw ValidationError("--repetitions must be in 1…100") }
    }

    func run() throws {
        let track = Self.track(count: points)
        print("simplification benchmark: \(points) points (1 s apart, a walk and drive bounded to a 40 km city)")
        var sink = 0.0
        let pass = Measurement.run("one linear pass (projection + distance to the chord)", repetitions: repetitions) {
            let plane = LocalProjection(track)
            let first = plane.project(track[0])
            let last = plane.project(track[track.count - 1])
            var farthest = 0.0
            for point in track {
                farthest = max(farthest, Simplification.segmentDistance(plane.project(point), first, last))
            }
            sink += farthest
        }
        print(String(format: "  %@: median %.1f ms", pass.label, pass.median * 1000))
        for tolerance in tolerances {
            var kept: [SampleValues] = []
            let simplify = Measurement.run("Douglas–Peucker", repetitions: repetitions) {
                kept = Simplification.douglasPeucker(track, tolerance: tolerance)
            }
            let worst = Self.worstDeviation(track, kept: kept)
            print(
                String(
                    format: "  tolerance %.0f m: median %.1f ms (%.1f× one pass, %.0f ns/point), %d points kept "
                        + "(%.2f %%), farthest dropped point %.2f m from its segment%@", tolerance,
                    simplify.median * 1000, simplify.median / pass.median, simplify.median * 1e9 / Double(points),
                    kept.count, 100 * Double(kept.count) / Double(points), worst,
                    worst <= tolerance ? "" : "  ✘ OVER THE TOLERANCE"))
            if worst > tolerance { throw ExitCode.failure }
        }
        if sink.isNaN { print("") }  // keeps the baseline's work observable
    }

    /// A seeded track: heading drifts, speed switches between walking and driving, with 3 m of GPS
    /// noise, reflected at the edges of a 40 × 40 km box around Shanghai.
    static func track(count: Int) -> [SampleValues] {
        var random = SeededRandom(seed: 13)
        let metresPerDegree = 111_195.0
        let centre = (latitude: 31.2304, longitude: 121.4737)
        let cosine = 0.855
        var x = 0.0
        var y = 0.0
        var heading = 0.0
        var speed = 1.4
        var result: [SampleValues] = []
        result.reserveCapacity(count)
        let start = Instant(milliseconds: 1_732_233_600_000)
        for index in 0..<count {
            if random.unit() < 0.001 { speed = random.unit() < 0.5 ? 1.4 : 8 + 8 * random.unit() }
            heading += (random.unit() - 0.5) * 0.2
            x += speed * cos(heading)
            y += speed * sin(heading)
            if abs(x) > 20_000 { heading = .pi - heading; x = x.sign == .minus ? -20_000 : 20_000 }
            if abs(y) > 20_000 { heading = -heading; y = y.sign == .minus ? -20_000 : 20_000 }
            let noiseX = (random.unit() - 0.5) * 6
            let noiseY = (random.unit() - 0.5) * 6
            result.append(
                SampleValues(
                    time: start + .seconds(Int64(index)),
                    latitude: centre.latitude + (y + noiseY) / metresPerDegree,
                    longitude: centre.longitude + (x + noiseX) / (metresPerDegree * cosine)))
        }
        return result
    }

    /// The largest distance, in the simplification's own plane, from a dropped point to the kept
    /// segment that spans it. `kept` must be a subsequence of `track` with its ends.
    static func worstDeviation(_ track: [SampleValues], kept: [SampleValues]) -> Double {
        let plane = LocalProjection(track)
        var worst = 0.0
        var next = 0
        var segmentStart = plane.project(track[0])
        var segmentEnd = segmentStart
        var pending: [PlanePoint] = []
        for point in track {
            let projected = plane.project(point)
            if next < kept.count && kept[next] == point {
                segmentEnd = projected
                for dropped in pending {
                    worst = max(worst, Simplification.segmentDistance(dropped, segmentStart, segmentEnd))
                }
                pending.removeAll(keepingCapacity: true)
                segmentStart = projected
                next += 1
            } else {
                pending.append(projected)
            }
        }
        return next == kept.count && pending.isEmpty ? worst : .infinity
    }
}
