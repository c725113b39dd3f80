import ArgumentParser
import BackgroundCore
import Foundation
import IOSSimulator

/// `bgtrack lint-plist PATH [--strategy NAME] [--target NAME]`: does the app's Info.plist, or the
/// one XcodeGen writes from a project.yml, declare what the strategy needs?
struct LintPlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint-plist",
        abstract:
            "Check an app's Info.plist (XML, binary, or from a project.yml) for what a keep-alive strategy needs.",
        discussion: """
            Checks UIBackgroundModes, the location usage strings and BGTaskSchedulerPermittedIdentifiers.
            Given an XcodeGen project.yml, checks the Info.plist XcodeGen writes: the application target's
            info.properties over the keys XcodeGen generates.
            Exit status 0 when nothing is missing or wrong (warnings allowed), 1 otherwise.
            Example: bgtrack lint-plist Examples/TrackerApp/project.yml --strategy adaptive
            """)

    @Argument(help: "The Info.plist or XcodeGen project.yml to check.") var path: String
    @Option(help: "The strategy the app uses.") var strategy: StrategyName = .adaptive
    @Option(help: "The project.yml target to read (default: its only application target).") var target: String?
    @Flag(help: "Print the keys checked, as an XML plist, before the findings.") var showPlist = false

    func run() throws {
        let plist: [String: Any]
        do {
            let loaded = try InfoPlistFile.load(path: path, target: target)
            plist = loaded.plist
            if loaded.origin != path { print("reading \(loaded.origin)") }
        } catch {
            print("error: \(error)")
            print("\(path): 1 problem(s) for \(strategy.rawValue)")
            throw ExitCode(1)
        }
        if showPlist {
            let xml = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            print(String(decoding: xml, as: UTF8.self))
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
