package import BackgroundCore

/// What the headline results rest on (issue 8, item 8): every strategy's coverage and energy
/// ratio to `continuous-location` on one iOS profile, then again with each parameter whose status
/// is `assumption` at ×0.5 and ×2, and once with every assumption at ×2 together.
///
/// ```swift
/// let study = Sensitivity.run(Sensitivity.Setup(ios: 17, app: IOSShell()))
/// print(Sensitivity.table(study))
/// ```
package enum Sensitivity {
    /// A result moves "materially" when it changes by more than this share of its baseline.
    package static let threshold = 0.10

    /// The day every run of the study simulates.
    package struct Setup: Sendable {
        package var ios: Int
        /// The app every run hosts (the iOS shell).
        package var app: any HostedAppFactory
        package var authorization: LocationAuthorization
        package var scenario: Scenario
        package var hours: Double
        package var seed: UInt64
        package var memoryKillFactor: Double
        package var strategies: [StrategyName]
        package var factors: [Double]
        /// The assumptions to vary one by one; `nil` varies every one.
        package var parameters: [PolicyKey]?
        package var hostAppRegions = 0
        /// Reuse a strategy's baseline report where a variation changes no parameter the baseline
        /// run read (see ``run(_:progress:)``); `false` simulates every run (the tests compare).
        package var reusesUnchangedRuns = true

        package init(
            ios: Int, app: any HostedAppFactory, authorization: LocationAuthorization = .always,
            scenario: Scenario = .commute(),
            hours: Double = 24, seed: UInt64 = 1, memoryKillFactor: Double = 1,
            strategies: [StrategyName] = StrategyName.allCases, factors: [Double] = [0.5, 2],
            parameters: [PolicyKey]? = nil
        ) {
            self.ios = ios
            self.app = app
            self.authorization = authorization
            self.scenario = scenario
            self.hours = hours
            self.seed = seed
            self.memoryKillFactor = memoryKillFactor
            self.strategies = strategies
            self.factors = factors
            self.parameters = parameters
        }

        /// The assumptions varied one by one, in table order.
        var varied: [PolicyParameter] {
            Sensitivity.assumptions(ios: ios).filter { parameter in
                parameter.value != 0 && (parameters.map { $0.contains(parameter.key) } ?? true)
            }
        }
    }

    /// One strategy's headline under one variation.
    package struct Headline: Codable, Hashable, Sendable {
        package var strategy: String
        package var coverage: Double
        /// Energy divided by `continuous-location`'s energy in the same variation.
        package var energyRatio: Double
        package var energyMwh: Double

        enum CodingKeys: String, CodingKey {
            case strategy, coverage
            case energyRatio = "energy_ratio"
            case energyMwh = "energy_mwh"
        }
    }

    /// A headline that moved by more than ``threshold`` from the baseline.
    package struct Move: Codable, Hashable, Sendable {
        package var parameter: String
        package var factor: Double
        package var strategy: String
        /// `coverage` or `energy_ratio`.
        package var metric: String
        package var baseline: Double
        package var value: Double
        /// `(value - baseline) / baseline`.
        package var change: Double
    }

    /// The headlines with one parameter (or all assumptions, `parameter == "all assumptions"`)
    /// scaled by `factor`.
    package struct Variation: Codable, Hashable, Sendable {
        package var parameter: String
        package var unit: String
        package var factor: Double
        /// The parameter's value in the table and as run (`nil` for all assumptions together).
        package var tableValue: Double?
        package var headlines: [Headline]

        enum CodingKeys: String, CodingKey {
            case parameter, unit, factor, headlines
            case tableValue = "table_value"
        }
    }

    package struct Study: Codable, Hashable, Sendable {
        package var ios: Int
        package var auth: String
        package var scenario: String
        package var seed: UInt64
        package var baseline: [Headline]
        package var variations: [Variation]
        /// Parameters whose value is 0 in the table: scaling cannot vary them, so they are listed
        /// rather than silently passed over.
        package var notVaried: [String]
        package var moves: [Move]

        enum CodingKeys: String, CodingKey {
            case ios, auth, scenario, seed, baseline, variations, moves
            case notVaried = "not_varied"
        }
    }

    package static let allAssumptions = "all assumptions"

    /// The parameters whose status on iOS `ios` is `assumption`, in table order.
    package static func assumptions(ios: Int) -> [PolicyParameter] {
        PolicyKey.allCases.compactMap { key in
            guard let parameter = PolicyTable.parameter(key, ios: ios), parameter.status == .assumption else {
                return nil
            }
            return parameter
        }
    }

    /// The number of runs the study reports for `setup` (strategies × variations, baseline
    /// included); `run` simulates only those a variation can change.
    package static func runCount(_ setup: Setup) -> Int {
        setup.strategies.count * (1 + setup.varied.count * setup.factors.count + 1)
    }

    /// Runs the study, calling `progress(done, total)` after each run.
    ///
    /// A simulated day is deterministic and reads the policy only through its profile
    /// (`SimulationConfiguration.profile`), so it is a function of the parameter values it reads.
    /// The baseline records which parameters each strategy's day read; a variation that leaves
    /// all of them at their baseline values cannot change that day, and its baseline report is
    /// reused instead of simulating it again.
    package static func run(_ setup: Setup, progress: (Int, Int) -> Void = { _, _ in }) -> Study {
        study(setup, progress: progress).study
    }

    /// ``run(_:progress:)``, with the number of days it simulated (the rest are reused).
    /// One day of the study that must be simulated: a strategy under scaled parameters.
    package struct Job: Codable, Hashable, Sendable {
        package var strategy: String
        /// Parameter keys and their factors.
        package var scales: [String: Double]

        package init(strategy: StrategyName, scales: [PolicyKey: Double]) {
            self.strategy = strategy.rawValue
            self.scales = Dictionary(uniqueKeysWithValues: scales.map { ($0.key.rawValue, $0.value) })
        }
    }

    /// What the study keeps of a simulated day.
    package struct Outcome: Codable, Hashable, Sendable {
        package var strategy: String
        package var coverage: Double
        package var energyMwh: Double

        init(_ report: SimulationReport) {
            strategy = report.strategy
            coverage = report.coverage
            energyMwh = report.energyMwh
        }
    }

    /// Simulates `job` on the study's day (what a worker process runs for its share of the jobs).
    package static func simulate(_ job: Job, _ setup: Setup) -> Outcome {
        let strategy = StrategyName(rawValue: job.strategy) ?? .adaptive
        let scales = Dictionary(
            uniqueKeysWithValues: job.scales.compactMap { key, factor in PolicyKey(rawValue: key).map { ($0, factor) } }
        )
        return Outcome(simulate(strategy, scales, setup, reads: nil))
    }

    private static func simulate(
        _ strategy: StrategyName, _ scales: [PolicyKey: Double], _ setup: Setup, reads: ParameterReads?
    ) -> SimulationReport {
        var configuration = SimulationConfiguration(
            strategy: strategy, ios: setup.ios, app: setup.app, authorization: setup.authorization,
            scenario: setup.scenario,
            hours: setup.hours, seed: setup.seed, memoryKillFactor: setup.memoryKillFactor)
        configuration.parameterScales = scales
        configuration.hostAppRegions = setup.hostAppRegions
        configuration.parameterReads = reads
        var simulation = Simulation(configuration)
        return simulation.run()
    }

    /// The study, and how many days it simulated. The baselines run here; the days a variation
    /// can change go to `runner` (by default simulated here, one after another; `bgtrack compare`
    /// shares them with a second process), which returns their outcomes in order and calls its
    /// second argument for each day done.
    package static func study(
        _ setup: Setup, runner: (([Job], () -> Void) -> [Outcome])? = nil,
        progress: (Int, Int) -> Void = { _, _ in }
    ) -> (study: Study, simulated: Int) {
        let total = runCount(setup)
        var done = 0
        /// Each strategy's baseline report and the parameters its day read.
        var baselineRuns: [StrategyName: (report: SimulationReport, reads: Set<PolicyKey>)] = [:]
        for strategy in setup.strategies {
            let reads = ParameterReads()
            baselineRuns[strategy] = (simulate(strategy, [:], setup, reads: reads), reads.keys)
            done += 1
            progress(done, total)
        }
        let parameters = assumptions(ios: setup.ios)
        var variationScales: [(parameter: PolicyParameter?, factor: Double, scales: [PolicyKey: Double])] = []
        for parameter in setup.varied {
            for factor in setup.factors { variationScales.append((parameter, factor, [parameter.key: factor])) }
        }
        variationScales.append((nil, 2, Dictionary(uniqueKeysWithValues: parameters.map { ($0.key, 2.0) })))

        // A day that read no parameter a variation changes gives the baseline's report again.
        let table = IOSProfile(major: setup.ios)
        var jobs: [Job] = []
        var slots: [[Outcome?]] = []
        for variation in variationScales {
            let scaled = IOSProfile(major: setup.ios, scales: variation.scales)
            slots.append(
                setup.strategies.map { strategy in
                    if setup.reusesUnchangedRuns, let baseline = baselineRuns[strategy],
                        baseline.reads.allSatisfy({ table?[$0] == scaled?[$0] })
                    {
                        return Outcome(baseline.report)
                    }
                    jobs.append(Job(strategy: strategy, scales: variation.scales))
                    return nil
                })
        }
        done += setup.strategies.count * variationScales.count - jobs.count
        progress(done, total)
        let outcomes = withoutActuallyEscaping(progress) { progress in
            let oneDone = {
                done += 1
                progress(done, total)
            }
            return runner?(jobs, oneDone)
                ?? jobs.map { job in
                    defer { oneDone() }
                    return simulate(job, setup)
                }
        }
        var next = outcomes.makeIterator()

        func headlines(_ outcomes: [Outcome]) -> [Headline] {
            let reference = outcomes.first { $0.strategy == StrategyName.continuousLocation.rawValue }?.energyMwh ?? 0
            return outcomes.map {
                Headline(
                    strategy: $0.strategy, coverage: $0.coverage,
                    energyRatio: reference > 0 ? ($0.energyMwh / reference).rounded(toPlaces: 4) : 0,
                    energyMwh: $0.energyMwh)
            }
        }
        let baseline = headlines(setup.strategies.compactMap { baselineRuns[$0].map { Outcome($0.report) } })
        var variations: [Variation] = []
        for (variation, slot) in zip(variationScales, slots) {
            let filled = slot.map { $0 ?? next.next() }.compactMap { $0 }
            variations.append(
                Variation(
                    parameter: variation.parameter?.key.rawValue ?? allAssumptions,
                    unit: variation.parameter?.unit ?? "",
                    factor: variation.factor, tableValue: variation.parameter?.value, headlines: headlines(filled)))
        }
        let study = Study(
            ios: setup.ios, auth: setup.authorization.rawValue, scenario: setup.scenario.name, seed: setup.seed,
            baseline: baseline, variations: variations,
            notVaried: parameters.filter { $0.value == 0 }.map(\.key.rawValue),
            moves: moves(baseline: baseline, variations: variations))
        return (study, setup.strategies.count + jobs.count)
    }

    /// Every headline that moved by more than ``threshold``, largest first.
    static func moves(baseline: [Headline], variations: [Variation]) -> [Move] {
        var moves: [Move] = []
        for variation in variations {
            for headline in variation.headlines {
                guard let base = baseline.first(where: { $0.strategy == headline.strategy }) else { continue }
                for (metric, from, to) in [
                    ("coverage", base.coverage, headline.coverage),
                    ("energy_ratio", base.energyRatio, headline.energyRatio),
                ] {
                    // A ratio of a strategy to itself cannot move; 0 → 0 is no move either.
                    guard from != to else { continue }
                    let change = from == 0 ? Double.infinity : (to - from) / from
                    if abs(change) > threshold {
                        moves.append(
                            Move(
                                parameter: variation.parameter, factor: variation.factor,
                                strategy: headline.strategy, metric: metric, baseline: from, value: to,
                                change: change.isFinite ? change.rounded(toPlaces: 4) : 999))
                    }
                }
            }
        }
        return moves.sorted { abs($0.change) > abs($1.change) }
    }

    /// A plain-text report: the headline table per variation, then the material moves.
    package static func table(_ study: Study) -> String {
        let strategies = study.baseline.map(\.strategy)
        let header = ["parameter", "×"] + strategies.map { ReportTable.abbreviation($0) }
        func cells(_ headlines: [Headline]) -> [String] {
            strategies.map { name in
                guard let headline = headlines.first(where: { $0.strategy == name }) else { return "-" }
                return ReportTable.fixed(headline.coverage, 3) + "/" + ReportTable.fixed(headline.energyRatio, 3)
            }
        }
        var rows = [["baseline", "1"] + cells(study.baseline)]
        for variation in study.variations {
            rows.append([variation.parameter, ReportTable.fixed(variation.factor, 1)] + cells(variation.headlines))
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let lines = all.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var text = """
            Sensitivity: iOS \(study.ios), \(study.auth), \(study.scenario), seed \(study.seed). Each cell is \
            coverage/energy ratio to continuous-location.
            Columns: \(strategies.map { "\(ReportTable.abbreviation($0)) = \($0)" }.joined(separator: ", "))

            """
        text += lines.joined(separator: "\n")
        if !study.notVaried.isEmpty {
            text += "\n\nAssumptions at 0 in the table (scaling cannot vary them): "
            text += study.notVaried.joined(separator: ", ")
        }
        let material = study.moves.filter { $0.parameter != allAssumptions }
        let parameters = material.reduce(into: [String]()) { if !$0.contains($1.parameter) { $0.append($1.parameter) } }
        text += "\n\nParameters that move a headline by more than \(Int(threshold * 100)) %: "
        text += parameters.isEmpty ? "none" : String(parameters.count)
        for parameter in parameters {
            let worst = material.filter { $0.parameter == parameter }.prefix(3).map {
                "\($0.strategy) \($0.metric == "coverage" ? "coverage" : "energy ratio") "
                    + "\(ReportTable.fixed($0.baseline, 3))→\(ReportTable.fixed($0.value, 3)) at ×\(ReportTable.fixed($0.factor, 1))"
            }
            text += "\n  \(parameter): " + worst.joined(separator: "; ")
        }
        return text
    }
}
