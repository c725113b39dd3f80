import ArgumentParser
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LocationLog
import TrackServer

struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the iOS shell with one keep-alive strategy through a simulated day on a simulated iPhone.",
        discussion: "Strategies:\n"
            + StrategyName.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))

    enum Format: String, CaseIterable, ExpressibleByArgument { case table, json }

    @Option(help: "The keep-alive strategy.")
    var strategy: StrategyName

    @Option(help: "The iOS profile: \(IOSProfile.supportedVersions.map(String.init).joined(separator: ", ")).")
    var ios: Int = 17

    @Option(
        help: """
            How the user answers the location prompts from a fresh install: always (While Using, then \
            Always at the upgrade), when-in-use, allow-once or denied.
            """)
    var auth: AuthorizationOption = .always

    @OptionGroup var scenario: ScenarioOptions

    @Option(help: "Output format.")
    var format: Format = .table

    @Flag(help: "Print the timeline of launches, suspensions, tasks, kills and notices.")
    var timeline = false

    @Flag(help: "Let the adaptive strategy use silent audio when nothing else works (App Review risk).")
    var allowSilentAudio = false

    func validate() throws {
        guard IOSProfile.supportedVersions.contains(ios) else {
            throw ValidationError(
                "--ios \(ios) is not a simulated profile; use one of: "
                    + IOSProfile.supportedVersions.map(String.init).joined(separator: ", ") + ".")
        }
    }

    /// On the main actor: the simulated iPhone runs the iOS shell, which is main-thread code like UIKit.
    func run() async throws {
        try await MainActor.run { try runOnMain() }
    }

    @MainActor
    func runOnMain() throws {
        var configuration = SimulationConfiguration(
            strategy: strategy, ios: ios, app: IOSShell(), authorization: auth.authorization,
            scenario: scenario.resolvedScenario,
            hours: scenario.hours, seed: scenario.seed, allowsSilentAudio: allowSilentAudio,
            memoryKillFactor: scenario.memoryKills, faults: Set(scenario.faults), recordsTimeline: timeline)
        scenario.configure(&configuration)
        configuration.allowOnce = auth == .allowOnce
        var simulation = Simulation(configuration)
        let report = simulation.run()
        switch format {
        case .json:
            print(try ReportJSON.encode(report))
        case .table:
            print(ReportTable.render([report]))
            print(RuntimeContractText.summary(report))
            if report.deadManNotices.isEmpty {
                print("\ndead-man notice: never fired")
            } else {
                print("\ndead-man notice (\"Tracking stopped at …\") fired \(report.deadManNotices.count)×:")
                for notice in report.deadManNotices {
                    print("  \(notice.firedAt)  last sample \(notice.lastSample), app \(notice.appState)")
                }
            }
            print(NotificationText.summary(report))
            print(
                "\nuploads: \(report.uploads) acknowledged, \(report.samplesOnServer) samples on the server, "
                    + "\(report.samplesPending) pending"
                    + "; \(report.backgroundTransfers) sent by the system's background URLSession")
            printServerGaps(simulation.serverGaps, start: configuration.scenario.start)
            if let lines = report.timeline {
                print("\ntimeline:")
                lines.forEach { print("  \($0)") }
            }
        }
    }
}

extension SimulateCommand {
    /// The sampling gaps the simulated server received, in the words its timeline and alerts use
    /// (`GapWords`): each with its reason and the phone's detail, the cause iOS gave included
    /// (docs/ios-policy.md §Causes). Times since the start, as in the timeline.
    func printServerGaps(_ gaps: [GapInterval], start: Instant) {
        let gaps = gaps.filter { $0.end > $0.start }
        print("\ngaps on the server: \(gaps.count)")
        func clock(_ instant: Instant) -> String {
            let seconds = Int((instant - start).seconds)
            return String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        }
        for gap in gaps {
            print("  \(clock(gap.start))–\(clock(gap.end)) \(gap.reason.rawValue): \(GapWords.sentence(gap))")
        }
    }
}

enum ReportJSON {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
