public import BackgroundCore

/// Every strategy × every iOS profile × both authorisations, through one scenario.
public enum Comparison {
    /// The runs of the matrix, in a stable order.
    public static func configurations(
        hours: Double, seed: UInt64, scenario: Scenario = .commute(),
        strategies: [StrategyName] = StrategyName.allCases, versions: [Int] = IOSProfile.supportedVersions
    ) -> [SimulationConfiguration] {
        strategies.flatMap { strategy in
            versions.flatMap { ios in
                [LocationAuthorization.always, .whenInUse].map { auth in
                    SimulationConfiguration(
                        strategy: strategy, ios: ios, authorization: auth, scenario: scenario, hours: hours, seed: seed)
                }
            }
        }
    }

    /// Runs the matrix, calling `progress(done, total)` after each run.
    public static func run(
        _ configurations: [SimulationConfiguration], progress: (Int, Int) -> Void = { _, _ in }
    ) -> [SimulationReport] {
        var reports: [SimulationReport] = []
        reports.reserveCapacity(configurations.count)
        for (index, configuration) in configurations.enumerated() {
            var simulation = Simulation(configuration)
            reports.append(simulation.run())
            progress(index + 1, configurations.count)
        }
        return reports
    }
}
