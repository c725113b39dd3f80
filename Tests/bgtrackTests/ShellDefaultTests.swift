import ArgumentParser
import BackgroundCore
import IOSSimulator
import Testing

@testable import bgtrack

/// Issue 21 item 5: the figures people read are the shipping code's. `--shell` defaults to the
/// iOS shell wherever it can run (iOS 17+, as the package requires) and to the keep-alive machine
/// on older profiles; every table says which code produced each row.
@Suite struct ShellDefaultTests {
    func configured(_ arguments: [String], ios: Int) throws -> SimulationConfiguration {
        let command = try #require(
            try BGTrack.parseAsRoot(["simulate", "--strategy", "adaptive"] + arguments) as? SimulateCommand)
        var configuration = SimulationConfiguration(strategy: .adaptive, ios: ios, hours: 1)
        command.scenario.configure(&configuration)
        return configuration
    }

    @Test("auto: the shell from iOS 17, with its background session; the machine before")
    func autoPicksTheShellWhereItRuns() throws {
        for ios in [17, 18] {
            let configuration = try configured([], ios: ios)
            #expect(configuration.app?.name == "ios", "iOS \(ios)")
            #expect(configuration.uploadSession == .background)
        }
        for ios in [6, 12, 16] {
            let configuration = try configured([], ios: ios)
            #expect(configuration.app == nil, "iOS \(ios)")
            #expect(configuration.uploadSession == .inProcess)
        }
    }

    @Test("--shell direct and --shell ios still force one code on every profile")
    func explicitChoices() throws {
        #expect(try configured(["--shell", "direct"], ios: 18).app == nil)
        #expect(try configured(["--shell", "ios"], ios: 12).app?.name == "ios")
        #expect(refusal(["compare", "--sensitivity", "--shell", "ios"])?.contains("--sensitivity") == true)
        #expect(refusal(["compare", "--sensitivity"]) == nil, "auto leaves the sensitivity study direct")
    }

    @Test("the table names the code of every row")
    func tableSaysWhichCode() {
        var direct = Simulation(SimulationConfiguration(strategy: .finiteTask, ios: 16, hours: 0.5))
        let report = direct.run()
        let table = ReportTable.render([report])
        #expect(table.split(separator: "\n").first?.contains(" code ") == true)
        #expect(table.split(separator: "\n").last?.contains(" direct ") == true)
        #expect(ReportTable.code(report) == "direct")
    }
}
