package import BackgroundCore

/// Every strategy × every iOS profile × both authorisations, through one scenario.
package enum Comparison {
    /// The runs of the matrix, in a stable order, each running `app`.
    package static func configurations(
        hours: Double, seed: UInt64, app: any HostedAppFactory, scenario: Scenario = .commute(),
        strategies: [StrategyName] = StrategyName.allCases, versions: [Int] = IOSProfile.supportedVersions
    ) -> [SimulationConfiguration] {
        strategies.flatMap { strategy in
            versions.flatMap { ios in
                [LocationAuthorization.always, .whenInUse].map { auth in
                    SimulationConfiguration(
                        strategy: strategy, ios: ios, app: app, authorization: auth, scenario: scenario, hours: hours,
                        seed: seed)
                }
            }
        }
    }

    /// Runs the matrix, calling `progress(done, total)` after each run.
    package static func run(
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

/// One matrix row (strategy, iOS, authorisation) over many seeds: medians and minimums, so a
/// result that holds only for a lucky seed shows (issue 8, item 11).
package struct SeedSummary: Codable, Hashable, Sendable {
    package var strategy: String
    package var ios: Int
    package var auth: String
    package var seeds: Int
    package var coverageMedian: Double
    package var coverageMin: Double
    package var energyMedianMwh: Double
    package var floorRatioMedian: Double
    package var pathErrorMedianM: Double
    package var violations: Int

    enum CodingKeys: String, CodingKey {
        case strategy, ios, auth, seeds
        case coverageMedian = "coverage_median"
        case coverageMin = "coverage_min"
        case energyMedianMwh = "energy_median_mwh"
        case floorRatioMedian = "floor_ratio_median"
        case pathErrorMedianM = "path_error_median_m"
        case violations
    }

    /// Groups reports by row, in the order rows first appear.
    package static func summarize(_ reports: [SimulationReport]) -> [SeedSummary] {
        var order: [String] = []
        var groups: [String: [SimulationReport]] = [:]
        for report in reports {
            let key = "\(report.strategy)|\(report.ios)|\(report.auth)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(report)
        }
        return order.compactMap { key in
            guard let group = groups[key], let first = group.first else { return nil }
            func median(_ values: [Double]) -> Double {
                let sorted = values.sorted()
                let middle = sorted.count / 2
                return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            }
            return SeedSummary(
                strategy: first.strategy, ios: first.ios, auth: first.auth, seeds: group.count,
                coverageMedian: median(group.map(\.coverage)).rounded(toPlaces: 4),
                coverageMin: (group.map(\.coverage).min() ?? 0).rounded(toPlaces: 4),
                energyMedianMwh: median(group.map(\.energyMwh)).rounded(toPlaces: 1),
                floorRatioMedian: median(group.map { $0.energyFloorMwh > 0 ? $0.energyMwh / $0.energyFloorMwh : 0 })
                    .rounded(toPlaces: 2),
                pathErrorMedianM: median(group.map(\.pathErrorMeanM)).rounded(toPlaces: 1),
                violations: group.map(\.invariantViolations).reduce(0, +))
        }
    }

    /// A plain-text table of summaries.
    package static func table(_ summaries: [SeedSummary]) -> String {
        let header = [
            "strategy", "ios", "auth", "seeds", "coverage median", "coverage min", "energy mWh median",
            "× floor median", "path err m median", "violations",
        ]
        let rows = summaries.map {
            [
                $0.strategy, String($0.ios), $0.auth, String($0.seeds), ReportTable.fixed($0.coverageMedian, 3),
                ReportTable.fixed($0.coverageMin, 3), ReportTable.fixed($0.energyMedianMwh, 1),
                ReportTable.fixed($0.floorRatioMedian, 2), ReportTable.fixed($0.pathErrorMedianM, 0),
                String($0.violations),
            ]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < 3 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
