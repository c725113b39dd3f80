import ArgumentParser
import BackgroundCore
import Foundation
import IOSSimulator
import Testing

@testable import bgtrack

/// `bgtrack lint-plist project.yml` (issue 22, item 2): the Info.plist XcodeGen writes from the
/// example's spec passes; a spec missing a mode fails naming the key; YAML the reader does not
/// understand, hostile or huge input is refused with the line and what to write instead.
@Suite struct LintProjectSpecTests {
    static let spec: String = LintPlistTests.examplePath

    static func example() throws -> String { try String(contentsOfFile: spec, encoding: .utf8) }

    static func info(_ yaml: String, target: String? = nil) throws(InfoPlistError) -> XcodeGenSpec.Info {
        try XcodeGenSpec.info(from: Data(yaml.utf8), target: target)
    }

    static func refusal(_ yaml: String, target: String? = nil) -> InfoPlistError? {
        do {
            _ = try info(yaml, target: target)
            return nil
        } catch {
            return error
        }
    }

    @Test func theExampleSpecPassesAdaptiveWithEveryKeyXcodeGenWrites() throws {
        let info = try Self.info(try Self.example())
        #expect(info.target == "TrackerApp" && info.path == "Info.plist")
        #expect(
            Set(info.plist.keys) == [
                "BGTaskSchedulerPermittedIdentifiers", "CFBundleDevelopmentRegion", "CFBundleDisplayName",
                "CFBundleExecutable", "CFBundleIdentifier", "CFBundleInfoDictionaryVersion", "CFBundleName",
                "CFBundlePackageType", "CFBundleShortVersionString", "CFBundleVersion",
                "NSLocationAlwaysAndWhenInUseUsageDescription", "NSLocationWhenInUseUsageDescription",
                "NSMotionUsageDescription", "UIBackgroundModes", "UILaunchScreen",
            ])
        #expect(
            info.plist["UIBackgroundModes"] as? [String] == ["location", "fetch", "processing", "remote-notification"])
        #expect(info.plist["CFBundleShortVersionString"] as? String == "1.0")
        #expect(info.plist["UILaunchScreen"] as? [String: Any]? != nil)
        #expect(PlistLinter(strategy: .adaptive).lint(info.plist).isEmpty)
        let command = try #require(
            try BGTrack.parseAsRoot(["lint-plist", Self.spec, "--strategy", "adaptive"]) as? LintPlistCommand)
        try command.run()
    }

    @Test(arguments: ["location", "fetch", "processing"])
    func aSpecMissingAModeFailsNamingTheKey(mode: String) throws {
        let broken = try Self.example().replacingOccurrences(of: "          - \(mode)\n", with: "")
        let errors = PlistLinter(strategy: .adaptive).lint(try Self.info(broken).plist).filter { $0.severity == .error }
        #expect(errors.map(\.key) == ["UIBackgroundModes"])
        #expect(errors.first?.message.contains("\"\(mode)\"") == true, "\(errors)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID()).yml")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data(broken.utf8).write(to: path)
        let command = try #require(try BGTrack.parseAsRoot(["lint-plist", path.path]) as? LintPlistCommand)
        #expect(throws: ExitCode(1)) { try command.run() }
    }

    @Test func scalarsAreTypedAsXcodeGenTypesThem() throws {
        let yaml = """
            targets:
              App:
                type: application
                info:
                  path: "Info.plist"   # a comment
                  properties:
                    UIRequiresFullScreen: YES
                    Count: 3
                    Plain: 1.0
                    Quoted: '1.0'
                    'Quoted key': "a \\"b\\" \\u00e9"
                    List: [a, "b, c", 'd']
                    Empty: []
                    Nested:
                    - name: x
                      value: no
                    - - inner
            """
        let plist = try Self.info(yaml).plist
        #expect(plist["UIRequiresFullScreen"] as? Bool == true)
        #expect(plist["Count"] as? Int == 3)
        #expect(plist["Plain"] as? Double == 1.0)
        #expect(plist["Quoted"] as? String == "1.0")
        #expect(plist["Quoted key"] as? String == "a \"b\" é")
        #expect(plist["List"] as? [String] == ["a", "b, c", "d"])
        #expect((plist["Empty"] as? [Any])?.isEmpty == true)
        let nested = try #require(plist["Nested"] as? [Any])
        #expect((nested.first as? [String: Any])?["value"] as? Bool == false)
        #expect(nested.last as? [String] == ["inner"])
        #expect(plist["CFBundlePackageType"] as? String == "APPL")
    }

    @Test func aSpecIsToldFromAPlistByNameOrContentAndReadWithCRLF() throws {
        let yaml = Data(try Self.example().replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(XcodeGenSpec.isSpec(path: "project.yml", data: Data()))
        #expect(XcodeGenSpec.isSpec(path: "spec", data: yaml))
        #expect(!XcodeGenSpec.isSpec(path: "Info.plist", data: Data(try LintPlistTests.example().utf8)))
        #expect(!XcodeGenSpec.isSpec(path: "spec", data: Data("bplist00".utf8)))
        #expect(try XcodeGenSpec.info(from: yaml, target: nil).plist["UIBackgroundModes"] as? [String] != nil)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("Info-\(UUID()).plist")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data(try LintPlistTests.example().utf8).write(to: path)
        #expect(throws: InfoPlistError.self) { try InfoPlistFile.read(path: path.path, target: "TrackerApp") }
        #expect(try InfoPlistFile.read(path: path.path)["UIBackgroundModes"] != nil)
    }

    @Test func theTargetIsPickedOrNamed() throws {
        let two = """
            targets:
              A: {type: application}
            """
        #expect(Self.refusal(two)?.message.contains("flow mappings") == true)
        let apps = """
            targets:
              A:
                type: application
                info: {}
              B:
                type: application
                info:
                  path: B.plist
            """
        #expect(Self.refusal(apps)?.message.contains("several application targets (A, B)") == true)
        #expect(try Self.info(apps, target: "B").path == "B.plist")
        #expect(Self.refusal(apps, target: "C")?.message.contains("no target \"C\"; the spec has A, B") == true)
        #expect(Self.refusal(apps, target: "A")?.key == "targets.A.info.path")
        let noInfo = "targets:\n  A:\n    type: application\n    templates: [Base]\n"
        #expect(Self.refusal(noInfo)?.message.contains("templates") == true)
        #expect(Self.refusal("name: X\n")?.key == "targets")
        let wrong = try #require(
            try BGTrack.parseAsRoot(["lint-plist", Self.spec, "--target", "Nope"]) as? LintPlistCommand)
        #expect(throws: ExitCode(1)) { try wrong.run() }
    }

    /// (description, YAML, words the message must contain)
    static let refused: [(String, String, [String])] = [
        ("a tab in the indentation", "targets:\n\tA: x\n", ["line 2", "tab"]),
        ("an anchor and alias (billion laughs)", "a: &a [x, x]\nb: [*a, *a]\n", ["line 1", "anchors"]),
        ("an alias", "targets:\n  A: *x\n", ["line 2", "aliases"]),
        ("a tag", "targets: !!map\n", ["tags"]),
        ("a block scalar", "targets:\n  A:\n    info: |\n      text\n", ["line 3", "block scalars"]),
        ("a flow mapping", "targets: {A: x}\n", ["flow mappings"]),
        ("an unterminated quote", "name: \"TrackerApp\ntargets: x\n", ["line 1", "close the quote"]),
        ("a duplicate key", "targets:\n  A: x\n  A: y\n", ["line 3", "twice"]),
        ("a merge key", "targets:\n  <<: x\n", ["merge keys"]),
        ("two documents", "name: a\n---\nname: b\n", ["line 2", "second YAML document"]),
        ("a directive", "%YAML 1.2\nname: a\n", ["directives"]),
        ("a complex key", "? a\n: b\n", ["complex keys"]),
        ("a list at the top", "- a\n- b\n", ["top level"]),
        ("a plain value with a colon", "name: a: b\n", ["double quotes"]),
        ("a wrongly indented line", "targets:\n  A: x\n    B: y\n", ["line 3", "indented more"]),
        ("a multi-line plain value", "name: Tracker\n  App\n", ["line 2", "one line in quotes"]),
        ("an unclosed flow list", "targets: [a, b\n", ["does not end"]),
        ("a nested flow list", "targets: [[a]]\n", ["nested flow"]),
        ("a bad escape", "name: \"a\\qb\"\n", ["escape"]),
        ("an empty file", "# only a comment\n\n", ["no content"]),
        ("NUL bytes", "name: a\0b\n", ["UTF-8"]),
        ("a null property", props("UIBackgroundModes:"), ["UIBackgroundModes", "has no value"]),
        ("a hex property", props("CFBundleVersion: 0x1F"), ["CFBundleVersion", "double quotes"]),
        ("a date property", props("Built: 2026-11-24"), ["Built", "date"]),
        ("an environment variable", props("CFBundleName: ${NAME}"), ["CFBundleName", "environment"]),
        (
            "properties as a list",
            "targets:\n  A:\n    type: application\n    info:\n      path: I\n      properties: [a]\n",
            ["must be a mapping"]
        ),
    ]

    static func props(_ line: String) -> String {
        "targets:\n  A:\n    type: application\n    info:\n      path: Info.plist\n      properties:\n        \(line)\n"
    }

    @Test(arguments: 0..<refused.count) func unreadableYAMLIsRefusedWithTheLineAndTheFix(index: Int) {
        let (name, yaml, words) = Self.refused[index]
        let error = Self.refusal(yaml)
        #expect(error != nil, "\(name): accepted")
        for word in words {
            #expect(error?.description.contains(word) == true, "\(name): '\(word)' not in \(error?.description ?? "")")
        }
    }

    @Test func hugeAndDeepInputIsRefusedQuickly() {
        let huge = "name: " + String(repeating: "x", count: 1 << 20) + "\n"
        #expect(Self.refusal(huge)?.message.contains("bytes") == true)
        // 100 000 levels of nesting: refused at the depth limit, not by exhausting the stack.
        var deep = ""
        for level in 0..<100_000 where deep.utf8.count < 900_000 {
            deep += String(repeating: " ", count: level % 2_000) + "k\(level):\n"
        }
        #expect(Self.refusal(deep)?.message.contains("nested deeper than") == true)
        let nested = (0..<40).map { String(repeating: "- ", count: $0) }.joined(separator: "\n")
        #expect(Self.refusal("targets:\n" + nested)?.message.contains("nested deeper than") == true)
        let garbage = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) })
        #expect(throws: InfoPlistError.self) { try XcodeGenSpec.info(from: garbage, target: nil) }
    }

    /// Every line-level mutation of the example (deleted, duplicated, indented, cut short) is
    /// either read or refused with a message that names a line or a key: never a crash.
    @Test func mutationsOfTheExampleAreReadOrRefusedCleanly() throws {
        let lines = try Self.example().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var refusals = 0
        for index in lines.indices {
            for mutate in [
                { (l: String) in "" }, { " " + $0 }, { String($0.prefix($0.count / 2)) }, { $0 + "\n" + $0 },
            ] {
                var copy = lines
                copy[index] = mutate(lines[index])
                do {
                    _ = try Self.info(copy.joined(separator: "\n"))
                } catch {
                    refusals += 1
                    #expect(error.message.hasPrefix("line ") || error.key != "(file)", "\(error)")
                }
            }
        }
        #expect(refusals > lines.count)
    }
}
