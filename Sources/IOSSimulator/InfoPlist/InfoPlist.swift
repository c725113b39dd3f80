package import BackgroundCore
import Foundation

/// What the simulated iPhone reads from the app's `Info.plist` (docs/ios-policy.md §Modes, §Contract): the background
/// modes that decide what may wake the app or keep it running, the `BGTaskScheduler` identifiers
/// it may register and submit, and whether the location usage strings are there (authorisation
/// requests fail at once without them).
///
/// ```swift
/// let plist = InfoPlist.minimal(for: .adaptive)        // what `lint-plist` accepts, no more
/// let mine = try InfoPlist(InfoPlistFile.read(path: "Info.plist"))
/// ```
package struct InfoPlist: Hashable, Sendable {
    /// `UIBackgroundModes`: `location`, `audio`, `fetch`, `processing`, `remote-notification`, …
    package var backgroundModes: Set<String>
    /// `BGTaskSchedulerPermittedIdentifiers`.
    package var permittedTaskIdentifiers: Set<String>
    /// `NSLocationWhenInUseUsageDescription` is a non-empty string.
    package var hasWhenInUseUsage: Bool
    /// `NSLocationAlwaysAndWhenInUseUsageDescription` is a non-empty string.
    package var hasAlwaysUsage: Bool
    /// `NSMotionUsageDescription` is a non-empty string: without it, starting motion activity
    /// updates crashes the app ([AD-CMMAM]).
    package var hasMotionUsage: Bool
    /// Where it came from, for the report: `minimal for adaptive` or the file's path.
    package var origin: String

    package init(
        backgroundModes: Set<String>, permittedTaskIdentifiers: Set<String>, hasWhenInUseUsage: Bool,
        hasAlwaysUsage: Bool, hasMotionUsage: Bool = false, origin: String
    ) {
        self.backgroundModes = backgroundModes
        self.permittedTaskIdentifiers = permittedTaskIdentifiers
        self.hasWhenInUseUsage = hasWhenInUseUsage
        self.hasAlwaysUsage = hasAlwaysUsage
        self.hasMotionUsage = hasMotionUsage
        self.origin = origin
    }

    /// The typed view of a plist's dictionary, as iOS reads it: entries of the wrong type count
    /// as absent (`lint-plist` reports them).
    package init(_ dictionary: [String: Any], origin: String = "Info.plist") {
        func strings(_ key: String) -> Set<String> {
            Set((dictionary[key] as? [Any])?.compactMap { $0 as? String } ?? [])
        }
        func usage(_ key: String) -> Bool {
            guard let text = dictionary[key] as? String else { return false }
            return !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        self.init(
            backgroundModes: strings("UIBackgroundModes"),
            permittedTaskIdentifiers: strings("BGTaskSchedulerPermittedIdentifiers"),
            hasWhenInUseUsage: usage("NSLocationWhenInUseUsageDescription"),
            hasAlwaysUsage: usage("NSLocationAlwaysAndWhenInUseUsageDescription"),
            hasMotionUsage: usage("NSMotionUsageDescription"), origin: origin)
    }

    /// The smallest plist `bgtrack lint-plist` accepts for `strategy` (a test checks it): its
    /// modes, its identifiers, the When-In-Use string, the Always string if it asks for Always,
    /// and the motion string if it uses the motion coprocessor.
    package static func minimal(for strategy: StrategyName) -> InfoPlist {
        let needs = strategy.requirements
        return InfoPlist(
            backgroundModes: Set(needs.backgroundModes), permittedTaskIdentifiers: Set(needs.taskIdentifiers),
            hasWhenInUseUsage: true, hasAlwaysUsage: needs.needsAlways, hasMotionUsage: needs.usesMotion,
            origin: "minimal for \(strategy.rawValue)")
    }

    /// The plist as a dictionary, with placeholder usage strings.
    package var dictionary: [String: Any] {
        var plist: [String: Any] = [:]
        if !backgroundModes.isEmpty { plist["UIBackgroundModes"] = backgroundModes.sorted() }
        if !permittedTaskIdentifiers.isEmpty {
            plist["BGTaskSchedulerPermittedIdentifiers"] = permittedTaskIdentifiers.sorted()
        }
        if hasWhenInUseUsage { plist["NSLocationWhenInUseUsageDescription"] = "Records your route while you use it." }
        if hasAlwaysUsage { plist["NSLocationAlwaysAndWhenInUseUsageDescription"] = "Records your route when closed." }
        if hasMotionUsage { plist["NSMotionUsageDescription"] = "Notices when you set off, to measure trips exactly." }
        return plist
    }

    package func declares(_ mode: String) -> Bool { backgroundModes.contains(mode) }
}
