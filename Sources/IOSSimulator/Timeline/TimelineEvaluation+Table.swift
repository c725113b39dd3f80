package import BackgroundCore
import Foundation
import LocationLog
package import TrackGeometry

extension TimelineEvaluation {
    /// One row of the evaluation table: a scenario and a strategy over several seeds.
    package struct Row: Sendable {
        package var scenario: String
        package var strategy: StrategyName
        package var seeds: Int
        package var score: TimelineScore
        package var samples: Int
    }

    /// Runs `app` through every scenario × strategy × seed (iOS 17, Always, 2-minute sampling) and sums each
    /// scenario-strategy pair's scores over the seeds. `connect` gives each run its server
    /// connection (a fresh device; the server computes its timeline with `settings`); `inspect`
    /// sees each run with its connection, e.g. to read the samples behind a miss.
    package static func table(
        scenarios: [String], strategies: [StrategyName], seeds: ClosedRange<UInt64>, app: any HostedAppFactory,
        settings: TimelineSettings = .sampling(every: .seconds(120)),
        connect: (SimulationConfiguration) throws -> TimelineConnection, progress: (Int, Int) -> Void = { _, _ in },
        inspect: (SimulationConfiguration, Run, TimelineConnection) throws -> Void = { _, _, _ in }
    ) throws -> [Row] {
        var rows: [Row] = []
        let total = scenarios.count * strategies.count * seeds.count
        var done = 0
        for name in scenarios {
            guard let scenario = Scenario.named(name) else { continue }
            for strategy in strategies {
                var row = Row(scenario: name, strategy: strategy, seeds: seeds.count, score: .init(), samples: 0)
                for seed in seeds {
                    let configuration = SimulationConfiguration(
                        strategy: strategy, ios: 17, app: app, scenario: scenario,
                        hours: scenario.duration.seconds / 3600,
                        seed: seed)
                    let connection = try connect(configuration)
                    let run = try run(configuration, settings: settings, connection: connection)
                    try inspect(configuration, run, connection)
                    row.score.merge(run.score)
                    row.samples += run.samples
                    done += 1
                    progress(done, total)
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// The table as Markdown: stays expected / found / matched, precision, recall, edge errors
    /// (median and maximum, seconds; the share within one sampling interval) and trip distance
    /// error (median and maximum, %).
    package static func markdown(_ rows: [Row], interval: Duration = .seconds(120)) -> String {
        var lines = [
            "| scenario | strategy | seeds | samples | stays exp. | found | matched | precision | recall "
                + "| start err. med/max s | end err. med/max s | edges ≤ 1 interval | trip dist. err. med/max % "
                + "| trips across gaps | edges at gaps | gaps | inferred stays |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            let score = row.score
            let edges = score.startErrors + score.endErrors
            let within = edges.isEmpty ? 1 : Double(edges.count { $0 <= interval.seconds }) / Double(edges.count)
            lines.append(
                "| \(row.scenario) | \(row.strategy.rawValue) | \(row.seeds) | \(row.samples) | \(score.staysExpected) "
                    + "| \(score.staysFound) | \(score.staysMatched) | \(fixed(score.precision, 3)) "
                    + "| \(fixed(score.recall, 3)) | \(medianMax(score.startErrors, 0)) "
                    + "| \(medianMax(score.endErrors, 0)) | \(fixed(within * 100, 1)) % "
                    + "| \(medianMax(score.tripDistanceErrors.map { $0 * 100 }, 1)) | \(score.tripsAcrossGaps) "
                    + "| \(score.edgesAtGaps) | \(score.gapsFound) | \(score.inferredStays) |")
        }
        return lines.joined(separator: "\n")
    }

    static func medianMax(_ values: [Double], _ places: Int) -> String {
        guard !values.isEmpty else { return "–" }
        let sorted = values.sorted()
        return "\(fixed(sorted[sorted.count / 2], places)) / \(fixed(sorted[sorted.count - 1], places))"
    }

    static func fixed(_ value: Double, _ places: Int) -> String { String(format: "%.\(places)f", value) }
}
