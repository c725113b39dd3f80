#if !canImport(UIKit)
    public import Foundation

    /// Shadow only, not Apple API: the system behind `UIApplication` and `UIDevice`.
    ///
    /// Each shadow module (one per Apple framework, as in the SDK) forwards to a backend of its
    /// own, so a shell file sees a framework's API only through that framework's import. The
    /// umbrella module `AppleShadow` installs one object as the backend of every module.
    public protocol UIKitBackend: AnyObject {
        /// `beginBackgroundTask(withName:expirationHandler:)`; returns the raw identifier, or
        /// `UIBackgroundTaskIdentifier.invalid.rawValue` when the system refuses.
        func beginBackgroundTask(name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?) -> Int
        func endBackgroundTask(_ rawValue: Int)
        var backgroundTimeRemaining: TimeInterval { get }
        var applicationState: UIApplication.State { get }
        /// `UIApplication.backgroundRefreshStatus`: the Background App Refresh switch.
        var backgroundRefreshStatus: UIBackgroundRefreshStatus { get }
        /// `UIDevice.isBatteryMonitoringEnabled`, and the battery as iOS reports it when it is on.
        var batteryMonitoringEnabled: Bool { get set }
        var batteryLevel: Float { get }
        var batteryState: UIDevice.BatteryState { get }
        /// `UIApplication.isProtectedDataAvailable`: `false` after a reboot until the user's first
        /// unlock (the shell's files, of class `completeUntilFirstUserAuthentication`, are closed).
        var isProtectedDataAvailable: Bool { get }
    }

    extension UIKitBackend {
        /// A backend that models no reboot: protected data is always available.
        public var isProtectedDataAvailable: Bool { true }
    }

    /// Shadow only: where `UIApplication` and `UIDevice` find their backend.
    public enum UIKitShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it). Set once before
        /// the app's code runs; UIKit is used from the main thread only, which is why the
        /// unchecked global is safe here.
        nonisolated(unsafe) public static var backend: any UIKitBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: UIKitBackend {
            func beginBackgroundTask(name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?) -> Int {
                uninstalled()
            }
            func endBackgroundTask(_ rawValue: Int) { uninstalled() }
            var backgroundTimeRemaining: TimeInterval { uninstalled() }
            var applicationState: UIApplication.State { uninstalled() }
            var backgroundRefreshStatus: UIBackgroundRefreshStatus { uninstalled() }
            var batteryMonitoringEnabled: Bool {
                get { uninstalled() }
                set { uninstalled() }
            }
            var batteryLevel: Float { uninstalled() }
            var batteryState: UIDevice.BatteryState { uninstalled() }
        }
    }

    func uninstalled(_ what: String = #function) -> Never {
        preconditionFailure(
            "AppleShadow: UIKit's \(what) used before a backend was installed; set ShadowSystem.backend first")
    }
#endif
