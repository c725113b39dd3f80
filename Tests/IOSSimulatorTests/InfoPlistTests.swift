import BackgroundCore
import Foundation
import IOSSimulator
import Testing

/// One Info.plist model for `lint-plist` and the simulated iPhone.
@Suite struct InfoPlistTests {
    @Test("the minimal plist of every strategy is one lint-plist accepts", arguments: StrategyName.allCases)
    func minimalPassesTheLinter(strategy: StrategyName) throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: InfoPlist.minimal(for: strategy).dictionary, format: .xml, options: 0)
        let errors = PlistLinter(strategy: strategy).lint(data).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
        // Minimal: dropping any mode makes the linter complain.
        for mode in strategy.requirements.backgroundModes {
            let smaller = InfoPlist.minimal(for: strategy).without(mode).dictionary
            #expect(!PlistLinter(strategy: strategy).lint(smaller).filter { $0.severity == .error }.isEmpty)
        }
    }

    @Test("the typed view reads what iOS reads; entries of the wrong type count as absent")
    func typedView() {
        let plist = InfoPlist([
            "UIBackgroundModes": ["location", 7, "fetch"], "BGTaskSchedulerPermittedIdentifiers": "not-an-array",
            "NSLocationWhenInUseUsageDescription": "  ", "NSLocationAlwaysAndWhenInUseUsageDescription": "Always.",
        ])
        #expect(plist.backgroundModes == ["location", "fetch"])
        #expect(plist.permittedTaskIdentifiers.isEmpty)
        #expect(!plist.hasWhenInUseUsage)
        #expect(plist.hasAlwaysUsage)
    }

    @Test("malformed, hostile and huge input is refused with what is wrong and how to fix it")
    func badInput() {
        func refusal(_ data: Data) -> InfoPlistError? {
            do {
                _ = try InfoPlistFile.parse(data)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(Data("{\"UIBackgroundModes\": 1".utf8))?.message.contains("plutil") == true)
        #expect(refusal(Data("bplist00".utf8) + Data(repeating: 0xFF, count: 64))?.key == "(file)")
        #expect(refusal(Data(#"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#.utf8))?.key == "(root)")
        #expect(
            refusal(Data(repeating: 0x20, count: InfoPlistFile.maximumBytes + 1))?.message.contains("bytes") == true)
        // A billion-laughs entity bomb is not expanded into memory: it is refused or read small.
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
            <plist version="1.0"><dict><key>k</key><string>&d;&d;&d;&d;</string></dict></plist>
            """
        if let dictionary = try? InfoPlistFile.parse(Data(bomb.utf8)) {
            #expect(((dictionary["k"] as? String)?.count ?? 0) <= 1_000_000)
        }
        do {
            _ = try InfoPlistFile.read(path: "/nonexistent/Info.plist")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.message.contains("cannot read /nonexistent/Info.plist"))
        }
    }
}
