#if !canImport(UIKit)
    /// Shadow only, not Apple API: the system behind the Foundation additions iOS has and
    /// swift-corelibs-foundation lacks (Low Power Mode).
    public protocol FoundationBackend: AnyObject {
        /// `ProcessInfo.isLowPowerModeEnabled`.
        var lowPowerModeEnabled: Bool { get }
    }

    /// Shadow only: where the Foundation additions find their backend.
    public enum FoundationShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it).
        nonisolated(unsafe) public static var backend: any FoundationBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: FoundationBackend {
            var lowPowerModeEnabled: Bool {
                preconditionFailure(
                    "AppleShadow: ProcessInfo.isLowPowerModeEnabled used before a backend was installed; "
                        + "set ShadowSystem.backend first")
            }
        }
    }
#endif
