import ArgumentParser
import BackgroundCore
import IOSShellHost
import IOSSimulator
import Testing

@testable import bgtrack

/// Issue 39 item 2: every run is the iOS shell an app links (BackgroundTracker through
/// AppleShadow), on every profile; direct mode (the keep-alive machine run by the simulator) is
/// gone. `--shell` and `--upload-session` stay, hidden, only to tell whoever still passes a removed
/// value what happened and what to do.
@MainActor @Suite struct ShellDefaultTests {
    func configured(_ arguments: [String], ios: Int) throws -> SimulationConfiguration {
        let command = try #require(
            try BGTrack.parseAsRoot(["simulate", "--strategy", "adaptive"] + arguments) as? SimulateCommand)
        var configuration = SimulationConfiguration(strategy: .adaptive, ios: ios, app: IOSShell(), hours: 1)
        command.scenario.configure(&configuration)
        return configuration
    }

    @Test("the shell runs on every profile, iOS 6, 12 and 16 under their own rules included")
    func theShellEverywhere() throws {
        for ios in IOSProfile.supportedVersions {
            #expect(try configured([], ios: ios).app.name == "ios", "iOS \(ios)")
            #expect(try configured(["--shell", "ios", "--upload-session", "background"], ios: ios).app.name == "ios")
        }
        #expect(refusal(["compare", "--sensitivity"]) == nil, "the sensitivity study runs the shell too")
    }

    @Test(
        "--shell direct, auto or a malformed value is refused: direct mode was removed, drop the flag",
        arguments: [["--shell", "direct"], ["--shell", "auto"], ["--shell", "dirkt"], ["--shell", ""]])
    func removedShellValues(arguments: [String]) throws {
        for command in [["simulate", "--strategy", "adaptive"], ["compare"]] {
            let text = try #require(refusal(command + arguments), "\(arguments) was accepted")
            #expect(text.contains("--shell"), "\(text)")
            #expect(text.contains("direct mode was removed"), "\(text)")
            #expect(text.contains("drop --shell"), "\(text)")
        }
    }

    @Test("--upload-session in-process or a malformed value is refused: the shell uploads in the background")
    func removedUploadSessionValues() throws {
        for value in ["in-process", "nsurlsessiond", ""] {
            let text = try #require(refusal(["simulate", "--strategy", "adaptive", "--upload-session", value]))
            #expect(text.contains("--upload-session"), "\(text)")
            #expect(text.contains("background URLSession"), "\(text)")
        }
    }

    @Test("--against-direct is gone")
    func againstDirectIsGone() {
        #expect(refusal(["compare", "--against-direct"])?.contains("--against-direct") == true)
    }

    @Test("the table names the code of every row: the shell, on an old profile too")
    func tableSaysWhichCode() {
        var run = Simulation(SimulationConfiguration(strategy: .finiteTask, ios: 16, app: IOSShell(), hours: 0.5))
        let report = run.run()
        let table = ReportTable.render([report])
        #expect(table.split(separator: "\n").first?.contains(" code ") == true)
        #expect(table.split(separator: "\n").last?.contains(" shell ") == true)
        #expect(ReportTable.code(report) == "shell")
    }
}
