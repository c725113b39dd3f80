package import BackgroundCore
package import Foundation

/// Checks an app's `Info.plist` (XML or binary) against what a strategy needs (``AppRequirements``).
/// Every finding says what is wrong and how to fix it.
package struct PlistLinter: Sendable {
    package struct Finding: Hashable, Sendable, CustomStringConvertible {
        package enum Severity: String, Sendable { case error, warning }
        package var severity: Severity
        package var key: String
        package var message: String
        package var description: String { "\(severity.rawValue): \(key): \(message)" }
    }

    /// Larger files are not Info.plists; reading them would only cost memory.
    package static let maximumBytes = InfoPlistFile.maximumBytes

    package let strategy: StrategyName

    package init(strategy: StrategyName) {
        self.strategy = strategy
    }

    /// Lints the bytes of a plist file.
    package func lint(_ data: Data) -> [Finding] {
        do {
            return lint(try InfoPlistFile.parse(data))
        } catch {
            return [.init(severity: .error, key: error.key, message: error.message)]
        }
    }

    package func lint(_ plist: [String: Any]) -> [Finding] {
        let needs = strategy.requirements
        var findings: [Finding] = []
        func error(_ key: String, _ message: String) {
            findings.append(.init(severity: .error, key: key, message: message))
        }
        func warning(_ key: String, _ message: String) {
            findings.append(.init(severity: .warning, key: key, message: message))
        }

        checkUsageString(
            plist, "NSLocationWhenInUseUsageDescription",
            why: "every location request needs it (also with Always); without it requests fail at once", error)
        if needs.needsAlways {
            checkUsageString(
                plist, "NSLocationAlwaysAndWhenInUseUsageDescription",
                why: "\(strategy.rawValue) asks for Always so iOS can relaunch the app; without it the request fails",
                error)
        }
        if needs.usesMotion {
            let text = (plist["NSMotionUsageDescription"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            if text?.isEmpty ?? true {
                warning(
                    "NSMotionUsageDescription",
                    "missing or empty; \(strategy.rawValue) uses the motion coprocessor to notice when the user sets "
                        + "off (iOS crashes an app that starts motion updates without it, so the library does not "
                        + "start them and trips are measured less exactly): add a sentence telling the user why")
            }
        }
        if plist["NSLocationAlwaysUsageDescription"] != nil,
            plist["NSLocationAlwaysAndWhenInUseUsageDescription"] == nil
        {
            warning(
                "NSLocationAlwaysUsageDescription",
                "deprecated since iOS 11; add NSLocationAlwaysAndWhenInUseUsageDescription instead")
        }

        let modes: [String]
        switch plist["UIBackgroundModes"] {
        case nil: modes = []
        case let list as [Any]:
            modes = list.compactMap { $0 as? String }
            if modes.count != list.count {
                error("UIBackgroundModes", "every entry must be a <string>; remove the other values")
            }
        default:
            error(
                "UIBackgroundModes",
                "must be an <array> of <string> entries, e.g. <array><string>location</string></array>")
            modes = []
        }
        for mode in needs.backgroundModes where !modes.contains(mode) {
            let why = needs.reasons[mode] ?? "the strategy needs it"
            error(
                "UIBackgroundModes",
                "lacks \"\(mode)\" (\(strategy.rawValue): \(why)); add <string>\(mode)</string> "
                    + "(Xcode: Signing & Capabilities › Background Modes)")
        }
        let known: Set<String> = [
            "location", "audio", "fetch", "processing", "remote-notification", "voip", "bluetooth-central",
            "bluetooth-peripheral", "external-accessory", "newsstand-content", "nearby-interaction", "push-to-talk",
        ]
        for mode in modes where !known.contains(mode) {
            error("UIBackgroundModes", "\"\(mode.prefix(60))\" is not a background mode iOS knows; check the spelling")
        }
        if modes.contains("audio"), !needs.backgroundModes.contains("audio") {
            warning(
                "UIBackgroundModes",
                "declares \"audio\" but \(strategy.rawValue) plays none; App Review (2.5.4) rejects audio mode "
                    + "without audible content: remove it")
        }

        if !needs.taskIdentifiers.isEmpty {
            switch plist["BGTaskSchedulerPermittedIdentifiers"] {
            case let list as [Any]:
                let ids = list.compactMap { $0 as? String }
                for id in needs.taskIdentifiers where !ids.contains(id) {
                    error(
                        "BGTaskSchedulerPermittedIdentifiers",
                        "lacks \"\(id)\"; iOS refuses to submit a task whose identifier is not listed: add "
                            + "<string>\(id)</string>")
                }
            case nil:
                error(
                    "BGTaskSchedulerPermittedIdentifiers",
                    "missing; \(strategy.rawValue) submits \(needs.taskIdentifiers.joined(separator: ", ")): add an "
                        + "<array> with \(needs.taskIdentifiers.map { "<string>\($0)</string>" }.joined())")
            default:
                error("BGTaskSchedulerPermittedIdentifiers", "must be an <array> of <string> identifiers")
            }
        }
        return findings
    }

    private func checkUsageString(
        _ plist: [String: Any], _ key: String, why: String, _ error: (String, String) -> Void
    ) {
        switch plist[key] {
        case nil:
            error(key, "missing; \(why). Add a sentence telling the user why the app uses their location")
        case let text as String where text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
            error(key, "is empty; iOS shows it to the user: write why the app uses their location")
        case is String:
            break
        default:
            error(key, "must be a <string>; \(why)")
        }
    }
}
