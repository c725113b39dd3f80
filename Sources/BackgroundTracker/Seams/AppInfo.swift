import Foundation

/// What the app's `Info.plist` declares that decides what the shell may ask of iOS: the
/// `UIBackgroundModes`, the `BGTaskSchedulerPermittedIdentifiers` and whether it has
/// `NSMotionUsageDescription`.
///
/// iOS raises an exception (the app crashes) when an app sets `allowsBackgroundLocationUpdates`
/// without the `location` mode, or registers a task identifier the plist does not permit, so the
/// shell reads the plist first and asks only for what it declares (docs/ios-policy.md §Modes, §Contract). On a phone
/// this is `Bundle.main`'s; the simulated iPhone and the tests hand in the plist of the app they
/// simulate.
package struct AppInfo: Hashable, Sendable {
    /// `UIBackgroundModes`: `location`, `audio`, `fetch`, `processing`, `remote-notification`…
    package var backgroundModes: Set<String>
    /// `BGTaskSchedulerPermittedIdentifiers`.
    package var permittedTaskIdentifiers: Set<String>
    /// `NSMotionUsageDescription` is a non-empty string: without it iOS crashes an app that
    /// starts motion activity updates, so the shell does not start them.
    package var hasMotionUsage: Bool

    package init(backgroundModes: Set<String>, permittedTaskIdentifiers: Set<String>, hasMotionUsage: Bool = false) {
        self.backgroundModes = backgroundModes
        self.permittedTaskIdentifiers = permittedTaskIdentifiers
        self.hasMotionUsage = hasMotionUsage
    }

    /// The keys as a plist dictionary holds them; entries of another type count as absent.
    package init(infoDictionary: [String: Any]) {
        func strings(_ key: String) -> Set<String> {
            Set((infoDictionary[key] as? [Any])?.compactMap { $0 as? String } ?? [])
        }
        let motion = (infoDictionary["NSMotionUsageDescription"] as? String) ?? ""
        self.init(
            backgroundModes: strings("UIBackgroundModes"),
            permittedTaskIdentifiers: strings("BGTaskSchedulerPermittedIdentifiers"),
            hasMotionUsage: !motion.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    /// The running app's own `Info.plist`.
    package static var main: AppInfo { AppInfo(infoDictionary: Bundle.main.infoDictionary ?? [:]) }

    /// Whether the app may keep receiving location updates in the background.
    package var allowsBackgroundLocation: Bool { backgroundModes.contains("location") }
}
