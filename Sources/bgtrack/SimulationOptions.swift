public import ArgumentParser
public import BackgroundCore
import IOSSimulator

extension StrategyName: ExpressibleByArgument {}

/// The authorisations a simulation can be given.
enum AuthorizationOption: String, CaseIterable, ExpressibleByArgument {
    case always
    case whenInUse = "when-in-use"

    var authorization: LocationAuthorization { self == .always ? .always : .whenInUse }
}

/// Options shared by `simulate` and `compare`.
struct ScenarioOptions: ParsableArguments {
    @Option(help: "Simulated hours (0.1…720).")
    var hours: Double = 24

    @Option(help: "Random seed; the same seed gives the same day.")
    var seed: UInt64 = 1

    @Option(help: "The user's day: \(Scenario.names.joined(separator: ", ")).")
    var scenario: String = "commute"

    mutating func validate() throws {
        guard hours.isFinite, (0.1...720).contains(hours) else {
            throw ValidationError("--hours \(hours) is outside 0.1…720; simulate at most 30 days.")
        }
        guard Scenario.names.contains(scenario) else {
            throw ValidationError(
                "--scenario '\(scenario)' is unknown; use one of: \(Scenario.names.joined(separator: ", ")).")
        }
    }

    var resolvedScenario: Scenario { Scenario.named(scenario) ?? .commute() }
}
