import ArgumentParser
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import Testing

@testable import bgtrack

/// `--plist PATH` (simulate and compare): the app's Info.plist, read by the same code as
/// `lint-plist`; bad files are refused with what is wrong and how to fix it.
@MainActor @Suite struct PlistFlagTests {
    static func file(_ name: String, _ data: Data) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-\(UUID().uuidString)-\(name)")
        try data.write(to: url)
        return url.path
    }

    @Test("a missing, malformed, hostile or huge --plist is refused, naming the flag and the fix")
    func badFilesAreRefused() throws {
        let missing = refusal(["simulate", "--strategy", "adaptive", "--plist", "/nonexistent/Info.plist"])
        #expect(missing?.contains("--plist /nonexistent/Info.plist") == true)
        #expect(missing?.contains("cannot read") == true)
        #expect(missing?.contains("leave --plist out") == true)

        let malformed = try Self.file("malformed.plist", Data("<plist><dict><key>UIBackgroundModes".utf8))
        #expect(refusal(["simulate", "--strategy", "adaptive", "--plist", malformed])?.contains("plutil") == true)

        let hostile = try Self.file("hostile.plist", Data("bplist00".utf8) + Data((0..<512).map { UInt8($0 % 251) }))
        #expect(refusal(["compare", "--plist", hostile])?.contains("not a property list") == true)

        let array = try Self.file(
            "array.plist", Data(#"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#.utf8))
        #expect(refusal(["simulate", "--strategy", "adaptive", "--plist", array])?.contains("dictionary") == true)

        let hugeURL = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-\(UUID().uuidString)-huge")
        #expect(FileManager.default.createFile(atPath: hugeURL.path, contents: nil))
        let handle = try FileHandle(forWritingTo: hugeURL)
        try handle.truncate(atOffset: UInt64(InfoPlistFile.maximumBytes + 1))
        try handle.close()
        #expect(refusal(["simulate", "--strategy", "adaptive", "--plist", hugeURL.path])?.contains("bytes") == true)
    }

    @Test("a good --plist reaches the run: without the location mode the shell is suspended, not crashed")
    func aWrongPlistCrashesTheApp() throws {
        var plist = InfoPlist.minimal(for: .continuousLocation).dictionary
        plist["UIBackgroundModes"] = nil
        let path = try Self.file(
            "nolocation.plist", try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0))
        #expect(refusal(["simulate", "--strategy", "continuous-location", "--plist", path]) == nil)
        let command = try #require(
            try BGTrack.parseAsRoot([
                "simulate", "--strategy", "continuous-location", "--hours", "1", "--plist", path,
            ]) as? SimulateCommand)
        var configuration = SimulationConfiguration(strategy: .continuousLocation, ios: 17, app: IOSShell(), hours: 1)
        command.scenario.configure(&configuration)
        #expect(configuration.plist?.origin == path)
        var simulation = Simulation(configuration)
        let report = simulation.run()
        // The shell reads the plist and never asks for background updates without the mode.
        #expect(report.crashes.isEmpty)
        #expect(report.coverage < 0.1, "\(report.coverage)")
        let text = RuntimeContractText.summary(report)
        #expect(text.contains("crashes: none"))
        #expect(text.contains("Info.plist: \(path)"))
        #expect(ReportTable.render([report]).contains("crashes"))
    }

    @Test("--auth takes the user's answers, allow-once and denied included; --precise-off parses")
    func authAnswers() {
        for auth in ["always", "when-in-use", "allow-once", "denied"] {
            #expect(refusal(["simulate", "--strategy", "adaptive", "--auth", auth, "--precise-off"]) == nil)
        }
        #expect(refusal(["simulate", "--strategy", "adaptive", "--auth", "sometimes"])?.contains("--auth") == true)
    }
}
