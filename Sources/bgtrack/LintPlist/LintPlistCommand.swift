import ArgumentParser
import BackgroundCore
import IOSSimulator

/// `bgtrack lint-plist PATH [--strategy NAME]`: does the app's Info.plist declare what the strategy needs?
struct LintPlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint-plist",
        abstract: "Check an app's Info.plist (XML or binary) for what a keep-alive strategy needs.",
        discussion: """
            Checks UIBackgroundModes, the location usage strings and BGTaskSchedulerPermittedIdentifiers.
            Exit status 0 when nothing is missing or wrong (warnings allowed), 1 otherwise.
            Example: bgtrack lint-plist Examples/TrackerApp/Info.plist --strategy adaptive
            """)

    @Argument(help: "The Info.plist to check.") var path: String
    @Option(help: "The strategy the app uses.") var strategy: StrategyName = .adaptive

    func run() throws {
        let plist: [String: Any]
        do {
            plist = try InfoPlistFile.read(path: path)
        } catch {
            print("error: \(error)")
            print("\(path): 1 problem(s) for \(strategy.rawValue)")
            throw ExitCode(1)
        }
        let findings = PlistLinter(strategy: strategy).lint(plist)
        for finding in findings { print(finding) }
        let errors = findings.filter { $0.severity == .error }.count
        if errors > 0 {
            print("\(path): \(errors) problem(s) for \(strategy.rawValue)")
            throw ExitCode(1)
        }
        print("\(path): OK for \(strategy.rawValue)" + (findings.isEmpty ? "" : " (\(findings.count) warning(s))"))
    }
}
