import ArgumentParser
import BackgroundCore
import Foundation
import IOSSimulator
import Testing

@testable import bgtrack

/// `bgtrack lint-plist` (issue 10, item 7): the example app's Info.plist passes; each broken
/// variant fails with a message naming the key and the fix. The example's Info.plist is the one
/// XcodeGen writes from its project.yml (issue 22), here as XML.
@Suite struct LintPlistTests {
    static let examplePath: String = {
        // Tests/bgtrackTests/LintPlistTests.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("Examples/TrackerApp/project.yml").path
    }()

    static func example() throws -> String {
        let plist = try InfoPlistFile.read(path: examplePath)
        let xml = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        return String(decoding: xml, as: UTF8.self)
    }

    static func lint(_ text: String, _ strategy: StrategyName = .adaptive) -> [PlistLinter.Finding] {
        PlistLinter(strategy: strategy).lint(Data(text.utf8))
    }

    static func errors(_ findings: [PlistLinter.Finding]) -> [PlistLinter.Finding] {
        findings.filter { $0.severity == .error }
    }

    /// Every strategy but `location-or-audio`: the example declares no audio mode on purpose (App
    /// Review 2.5.4), so that one fails, as the last broken variant checks.
    @Test(arguments: StrategyName.allCases.filter { $0 != .locationOrAudio })
    func theExamplePlistPassesForEveryStrategyWithoutAudio(strategy: StrategyName) throws {
        let findings = Self.lint(try Self.example(), strategy)
        #expect(Self.errors(findings).isEmpty, "\(findings)")
    }

    @Test func aBinaryPlistIsReadToo() throws {
        let parsed = try PropertyListSerialization.propertyList(from: Data(try Self.example().utf8), format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: parsed, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist".utf8)))
        #expect(Self.errors(PlistLinter(strategy: .adaptive).lint(binary)).isEmpty)
        // The same file with the location mode removed fails as the XML one does.
        var dictionary = try #require(parsed as? [String: Any])
        dictionary["UIBackgroundModes"] = ["fetch", "processing", "remote-notification"]
        let broken = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        #expect(Self.errors(PlistLinter(strategy: .adaptive).lint(broken)).map(\.key) == ["UIBackgroundModes"])
    }

    /// (description, edit of the example, strategy, key the error must name, words the message must contain)
    static let broken: [(String, @Sendable (String) -> String, StrategyName, String, [String])] = [
        (
            "malformed XML", { $0.replacingOccurrences(of: "</dict>\n</plist>", with: "</plist>") }, .adaptive,
            "(file)",
            ["not a property list", "plutil"]
        ),
        (
            "not a plist at all", { _ in "{\"UIBackgroundModes\": [\"location\"]}" }, .adaptive, "(file)",
            ["property list"]
        ),
        (
            "an array at the top", { _ in #"<?xml version="1.0"?><plist version="1.0"><array/></plist>"# }, .adaptive,
            "(root)", ["dictionary"]
        ),
        (
            "no location mode", { $0.replacingOccurrences(of: "<string>location</string>", with: "") }, .adaptive,
            "UIBackgroundModes", ["\"location\"", "Background Modes"]
        ),
        (
            "no fetch mode", { $0.replacingOccurrences(of: "<string>fetch</string>", with: "") }, .adaptive,
            "UIBackgroundModes", ["\"fetch\"", "BGAppRefreshTask"]
        ),
        (
            "no processing mode", { $0.replacingOccurrences(of: "<string>processing</string>", with: "") },
            .adaptive, "UIBackgroundModes", ["\"processing\"", "BGProcessingTask"]
        ),
        (
            "an unlisted processing task id",
            { $0.replacingOccurrences(of: "<string>com.backgroundtracker.processing</string>", with: "") },
            .adaptive, "BGTaskSchedulerPermittedIdentifiers", ["com.backgroundtracker.processing", "refuses"]
        ),
        (
            "no Always usage string",
            {
                $0.replacingOccurrences(
                    of: "<key>NSLocationAlwaysAndWhenInUseUsageDescription</key>", with: "<key>X</key>")
            },
            .adaptive, "NSLocationAlwaysAndWhenInUseUsageDescription", ["missing", "Always"]
        ),
        (
            "no When-In-Use usage string",
            { $0.replacingOccurrences(of: "<key>NSLocationWhenInUseUsageDescription</key>", with: "<key>Y</key>") },
            .continuousLocation, "NSLocationWhenInUseUsageDescription", ["missing"]
        ),
        (
            "an empty usage string",
            {
                $0.replacingOccurrences(
                    of: "Tracker records where you go while you use it, to draw your day on a map.", with: "  ")
            },
            .activitySession, "NSLocationWhenInUseUsageDescription", ["empty"]
        ),
        (
            "an unlisted task id",
            {
                $0.replacingOccurrences(
                    of: "<string>com.backgroundtracker.refresh</string>", with: "<string>com.example.refresh</string>")
            },
            .adaptive, "BGTaskSchedulerPermittedIdentifiers", ["com.backgroundtracker.refresh", "refuses"]
        ),
        (
            "no permitted identifiers at all",
            { $0.replacingOccurrences(of: "<key>BGTaskSchedulerPermittedIdentifiers</key>", with: "<key>Z</key>") },
            .adaptive, "BGTaskSchedulerPermittedIdentifiers", ["missing"]
        ),
        (
            "background modes as a string",
            {
                $0.replacingOccurrences(
                    of:
                        "<array>\n\t\t<string>location</string>\n\t\t<string>fetch</string>\n\t\t<string>processing</string>\n\t\t<string>remote-notification</string>\n\t</array>",
                    with: "<string>location</string>")
            },
            .continuousLocation, "UIBackgroundModes", ["<array>"]
        ),
        (
            "a misspelt mode",
            { $0.replacingOccurrences(of: "<string>fetch</string>", with: "<string>fecth</string>") },
            .continuousLocation, "UIBackgroundModes", ["fecth", "spelling"]
        ),
        (
            "a usage string that is a number",
            {
                $0.replacingOccurrences(
                    of: "<string>Tracker records where you go while you use it, to draw your day on a map.</string>",
                    with: "<integer>1</integer>")
            },
            .finiteTask, "NSLocationWhenInUseUsageDescription", ["<string>"]
        ),
        (
            "no audio mode for the audio strategy", { $0 }, .locationOrAudio, "UIBackgroundModes",
            ["\"audio\"", "2.5.4"]
        ),
    ]

    @Test(arguments: 0..<broken.count) func aBrokenVariantFailsWithAPreciseMessage(index: Int) throws {
        let (name, edit, strategy, key, words) = Self.broken[index]
        let variant = edit(try Self.example())
        let errors = Self.errors(Self.lint(variant, strategy))
        let match = errors.first { $0.key == key }
        #expect(match != nil, "\(name): expected an error on \(key), got \(errors)")
        for word in words {
            #expect(match?.message.contains(word) == true, "\(name): '\(word)' not in \(match?.message ?? "nothing")")
        }
    }

    @Test func audioDeclaredWithoutNeedIsAWarningNotAnError() throws {
        let variant = try Self.example().replacingOccurrences(
            of: "<string>fetch</string>", with: "<string>fetch</string><string>audio</string>")
        let findings = Self.lint(variant, .adaptive)
        #expect(Self.errors(findings).isEmpty)
        #expect(findings.contains { $0.severity == .warning && $0.message.contains("2.5.4") })
    }

    @Test func hugeAndHostileFilesAreRefusedCleanly() {
        let huge = Data(repeating: 0x20, count: PlistLinter.maximumBytes + 1)
        #expect(Self.errors(PlistLinter(strategy: .adaptive).lint(huge)).first?.message.contains("bytes") == true)
        let garbage = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        #expect(Self.errors(PlistLinter(strategy: .adaptive).lint(garbage)).first?.key == "(file)")
        let truncatedBinary = Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40)
        #expect(Self.errors(PlistLinter(strategy: .adaptive).lint(truncatedBinary)).first?.key == "(file)")
    }

    @Test func theCommandExitsZeroOnTheExampleAndOneOnAMissingFile() throws {
        let good = try #require(try BGTrack.parseAsRoot(["lint-plist", Self.examplePath]) as? LintPlistCommand)
        try good.run()
        let plistPath = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID()).plist")
        defer { try? FileManager.default.removeItem(at: plistPath) }
        try Data(try Self.example().utf8).write(to: plistPath)
        let plain = try #require(try BGTrack.parseAsRoot(["lint-plist", plistPath.path]) as? LintPlistCommand)
        try plain.run()
        let missing = try #require(
            try BGTrack.parseAsRoot(["lint-plist", "/nonexistent/Info.plist"]) as? LintPlistCommand)
        #expect(throws: ExitCode(1)) { try missing.run() }
    }
}
