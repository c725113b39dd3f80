import ArgumentParser
import BackgroundCore
import Foundation
import IOSSimulator

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run every strategy × every iOS profile × both authorisations and compare them.")

    enum Format: String, CaseIterable, ExpressibleByArgument { case table, json, svg }

    @OptionGroup var scenario: ScenarioOptions

    @Option(help: "Output format.")
    var format: Format = .table

    @Option(help: "Write the output to this file instead of standard output.")
    var output: String?

    func run() throws {
        let configurations = Comparison.configurations(
            hours: scenario.hours, seed: scenario.seed, scenario: scenario.resolvedScenario
        ).map {
            var configuration = $0
            configuration.memoryKillFactor = scenario.memoryKills
            configuration.faults = Set(scenario.faults)
            return configuration
        }
        let bar = ProgressBar(label: "simulating")
        let reports = Comparison.run(configurations) { done, total in bar.update(done, of: total) }
        bar.finish()
        let text: String
        switch format {
        case .table: text = ReportTable.render(reports)
        case .json: text = try ReportJSON.encode(reports)
        case .svg:
            text = ComparisonChart.svg(
                reports, title: "Keep-alive strategies, \(scenario.scenario) scenario, \(scenario.hours) h")
        }
        if let output {
            do {
                try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                throw ValidationError("--output \(output): cannot write the file (\(error.localizedDescription)).")
            }
        } else {
            print(text)
        }
    }
}
