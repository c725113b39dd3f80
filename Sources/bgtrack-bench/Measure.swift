import BackgroundCore

/// Wall-clock measurement for the benchmarks: runs a body several times and keeps every sample.
struct Measurement {
    var label: String
    var seconds: [Double]

    var median: Double {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var best: Double { seconds.min() ?? .nan }

    /// Times `body` `repetitions` times after one untimed warm-up run.
    static func run(_ label: String, repetitions: Int = 5, warmUp: Bool = true, _ body: () throws -> Void) rethrows
        -> Measurement
    {
        if warmUp { try body() }
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<max(1, repetitions) {
            let elapsed = try clock.measure(body)
            samples.append(elapsed.seconds)
        }
        return Measurement(label: label, seconds: samples)
    }

    /// Async variant of `run`.
    static func run(_ label: String, repetitions: Int = 5, warmUp: Bool = true, _ body: () async throws -> Void)
        async rethrows -> Measurement
    {
        if warmUp { try await body() }
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<max(1, repetitions) {
            let start = clock.now
            try await body()
            samples.append((clock.now - start).seconds)
        }
        return Measurement(label: label, seconds: samples)
    }
}
