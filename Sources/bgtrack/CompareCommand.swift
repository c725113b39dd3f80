import ArgumentParser
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator

struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run every strategy × every iOS profile × both authorisations and compare them.")

    enum Format: String, CaseIterable, ExpressibleByArgument { case table, json, svg }

    @OptionGroup var scenario: ScenarioOptions

    @Option(help: "Output format.")
    var format: Format = .table

    @Option(help: "Write the output to this file instead of standard output.")
    var output: String?

    @Option(help: "Run the matrix once per seed, e.g. 1-30 or 1,5,9 (at most 100 seeds); prints medians and minimums.")
    var seeds: String?

    @Flag(
        help: ArgumentHelp(
            "Run each assumed parameter at ×0.5 and ×2 and show how every strategy's coverage and energy ratio move.",
            discussion:
                "One iOS profile (--ios) and authorisation (--auth); lists the parameters that move a result by more than 10 %."
        ))
    var sensitivity = false

    @Option(help: "The iOS profile of --sensitivity.")
    var ios: Int = 17

    @Option(help: "The authorisation of --sensitivity.")
    var auth: AuthorizationOption = .always

    /// The second process of `--sensitivity`: simulates the jobs it reads on standard input and
    /// writes their outcomes to standard output (as JSON).
    @Flag(help: .hidden) var sensitivityWorker = false

    /// `--seeds` as a list: `A-B` or `A,B,C`.
    func seedList() throws -> [UInt64]? {
        guard let seeds else { return nil }
        let parts = seeds.split(separator: "-", omittingEmptySubsequences: false)
        var list: [UInt64]
        if parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low <= high, high - low < 100 {
            list = Array(low...high)
        } else {
            let items = seeds.split(separator: ",", omittingEmptySubsequences: false)
            list = items.compactMap { UInt64($0) }
            if list.count != items.count { list = [] }
        }
        guard (1...100).contains(list.count) else {
            throw ValidationError(
                "--seeds '\(seeds.prefix(60))' is not a range A-B or a list A,B,C of at most 100 seeds (e.g. --seeds 1-30)"
            )
        }
        return list
    }

    func validate() throws {
        _ = try seedList()
        if seeds != nil, format == .svg {
            throw ValidationError("--seeds prints a table or JSON; --format svg draws one seed")
        }
        if sensitivity {
            guard seeds == nil, format != .svg else {
                throw ValidationError(
                    "--sensitivity runs one seed and prints a table or JSON; drop --seeds and --format svg")
            }
            guard IOSProfile.supportedVersions.contains(ios) else {
                throw ValidationError(
                    "--ios \(ios) is not a simulated profile; use one of: "
                        + IOSProfile.supportedVersions.map(String.init).joined(separator: ", "))
            }
        }
    }

    /// On the main actor: every run is the iOS shell, which is main-thread code like UIKit.
    func run() async throws {
        try await MainActor.run { try runOnMain() }
    }

    @MainActor
    func runOnMain() throws {
        if sensitivity {
            try runSensitivity()
            return
        }
        if let seedList = try seedList() {
            try runSeeds(seedList)
            return
        }
        let reports = simulate(seeds: [scenario.seed], label: "simulating")
        let text: String
        switch format {
        case .table: text = ReportTable.render(reports)
        case .json: text = try ReportJSON.encode(reports)
        case .svg:
            text = ComparisonChart.svg(
                reports, title: "Keep-alive strategies, \(scenario.scenario) scenario, \(scenario.hours) h")
        }
        try emit(text)
    }

    /// The matrix once per seed, with the scenario options applied to every run.
    private func simulate(seeds: [UInt64], label: String) -> [SimulationReport] {
        let configurations = seeds.flatMap { seed in
            Comparison.configurations(
                hours: scenario.hours, seed: seed, app: IOSShell(), scenario: scenario.resolvedScenario
            ).map {
                var configuration = $0
                scenario.configure(&configuration)
                return configuration
            }
        }
        let bar = ProgressBar(label: label)
        let reports = Comparison.run(configurations) { done, total in bar.update(done, of: total) }
        bar.finish()
        return reports
    }

    private func runSeeds(_ seedList: [UInt64]) throws {
        let reports = simulate(seeds: seedList, label: "simulating \(seedList.count) seeds")
        let summaries = SeedSummary.summarize(reports)
        try emit(format == .json ? try ReportJSON.encode(summaries) : SeedSummary.table(summaries))
    }

    private var sensitivitySetup: Sensitivity.Setup {
        var setup = Sensitivity.Setup(
            ios: ios, app: IOSShell(), authorization: auth.authorization, scenario: scenario.resolvedScenario,
            hours: scenario.hours, seed: scenario.seed, memoryKillFactor: scenario.memoryKills)
        setup.hostAppRegions = scenario.appRegions
        return setup
    }

    private func runSensitivity() throws {
        let setup = sensitivitySetup
        if sensitivityWorker {
            let jobs = try JSONDecoder().decode(
                [Sensitivity.Job].self, from: FileHandle.standardInput.readDataToEndOfFile())
            print(try ReportJSON.encode(jobs.map { Sensitivity.simulate($0, setup) }))
            return
        }
        let bar = ProgressBar(label: "sensitivity")
        let study = Sensitivity.study(setup, runner: { sharedWithAWorker($0, setup, done: $1) }) { done, total in
            bar.update(done, of: total)
        }.study
        bar.finish()
        try emit(format == .json ? try ReportJSON.encode(study) : Sensitivity.table(study))
    }

    /// The study's days on both cores: the shell is main-thread code and the shadow's backend one
    /// per process, so the second core gets a process of its own (this executable with
    /// `--sensitivity-worker` and the same options), which simulates the first half of `jobs`
    /// while this one simulates the rest. The days are deterministic, so the outcomes are the
    /// ones one process would give; without a worker (it cannot start, or fails) this process
    /// simulates them all.
    private func sharedWithAWorker(
        _ jobs: [Sensitivity.Job], _ setup: Sensitivity.Setup, done: () -> Void
    ) -> [Sensitivity.Outcome] {
        func simulate(_ job: Sensitivity.Job) -> Sensitivity.Outcome {
            defer { done() }
            return Sensitivity.simulate(job, setup)
        }
        let half = jobs.count / 2
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        if !FileManager.default.fileExists(atPath: "/proc/self/exe") {
            worker.executableURL = Bundle.main.executableURL
        }
        worker.arguments = Self.workerArguments(Array(CommandLine.arguments.dropFirst()))
        let input = Pipe()
        let output = Pipe()
        worker.standardInput = input
        worker.standardOutput = output
        worker.standardError = FileHandle.nullDevice
        guard half > 0, (try? worker.run()) != nil else { return jobs.map(simulate) }
        // The worker's share: written whole before it starts reading (a few kilobytes).
        input.fileHandleForWriting.write((try? JSONEncoder().encode(Array(jobs.prefix(half)))) ?? Data())
        try? input.fileHandleForWriting.close()
        let mine = jobs.dropFirst(half).map(simulate)
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        worker.waitUntilExit()
        guard worker.terminationStatus == 0,
            let theirs = try? JSONDecoder().decode([Sensitivity.Outcome].self, from: answer), theirs.count == half
        else {
            return jobs.prefix(half).map(simulate) + mine
        }
        for _ in theirs { done() }
        return theirs + mine
    }

    /// This command's arguments for its worker: the same day and options, writing to standard
    /// output (never `--output`'s file).
    static func workerArguments(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
            } else if argument == "--output" {
                skipNext = true
            } else if !argument.hasPrefix("--output=") {
                kept.append(argument)
            }
        }
        return kept + ["--sensitivity-worker"]
    }

    private func emit(_ text: String) throws {
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
