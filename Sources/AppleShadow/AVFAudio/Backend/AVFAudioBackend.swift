#if !canImport(UIKit)
    import Foundation

    /// Shadow only, not Apple API: the system behind `AVAudioSession` and `AVAudioPlayer`.
    public protocol AVFAudioBackend: AnyObject {
        func audioSessionSetCategory(_ category: String, mode: String, mixesWithOthers: Bool) throws
        func audioSessionSetActive(_ active: Bool) throws
        func audioPlayerCreated(_ id: ObjectIdentifier, bytes: Int) throws
        /// `play()`; `loops` is `numberOfLoops` (-1 forever). Returns whether playback started.
        func audioPlayerPlay(_ id: ObjectIdentifier, loops: Int, volume: Float) -> Bool
        func audioPlayerStop(_ id: ObjectIdentifier)
    }

    /// Shadow only: where AVFAudio finds its backend.
    public enum AVFAudioShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it).
        nonisolated(unsafe) public static var backend: any AVFAudioBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: AVFAudioBackend {
            func audioSessionSetCategory(_ category: String, mode: String, mixesWithOthers: Bool) throws {
                uninstalled()
            }
            func audioSessionSetActive(_ active: Bool) throws { uninstalled() }
            func audioPlayerCreated(_ id: ObjectIdentifier, bytes: Int) throws { uninstalled() }
            func audioPlayerPlay(_ id: ObjectIdentifier, loops: Int, volume: Float) -> Bool { uninstalled() }
            func audioPlayerStop(_ id: ObjectIdentifier) { uninstalled() }
        }
    }

    func uninstalled(_ what: String = #function) -> Never {
        preconditionFailure(
            "AppleShadow: AVFAudio's \(what) used before a backend was installed; set ShadowSystem.backend first")
    }
#endif
