#if !canImport(UIKit)
    public import Foundation

    /// Shadow only, not Apple API: the system behind `CMMotionActivityManager`.
    public protocol CoreMotionBackend: AnyObject {
        /// `CMMotionActivityManager.isActivityAvailable()`: the device has a motion coprocessor.
        var motionActivityAvailable: Bool { get }
        /// `CMMotionActivityManager.authorizationStatus()`: Settings › Privacy › Motion & Fitness.
        var motionAuthorizationStatus: CMAuthorizationStatus { get }
        /// The app started activity updates on `manager`; the backend calls `handler` on `queue`
        /// with each new activity (and crashes the app without `NSMotionUsageDescription`).
        func motionActivityManager(
            _ manager: CMMotionActivityManager, startActivityUpdatesTo queue: OperationQueue,
            handler: @escaping CMMotionActivityHandler)
        func motionActivityManagerStoppedUpdates(_ manager: CMMotionActivityManager)
    }

    /// Shadow only: where Core Motion finds its backend.
    public enum CoreMotionShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it).
        nonisolated(unsafe) public static var backend: any CoreMotionBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: CoreMotionBackend {
            var motionActivityAvailable: Bool { uninstalled() }
            var motionAuthorizationStatus: CMAuthorizationStatus { uninstalled() }
            func motionActivityManager(
                _ manager: CMMotionActivityManager, startActivityUpdatesTo queue: OperationQueue,
                handler: @escaping CMMotionActivityHandler
            ) { uninstalled() }
            func motionActivityManagerStoppedUpdates(_ manager: CMMotionActivityManager) { uninstalled() }
        }
    }

    func uninstalled(_ what: String = #function) -> Never {
        preconditionFailure(
            "AppleShadow: Core Motion's \(what) used before a backend was installed; set ShadowSystem.backend first")
    }
#endif
