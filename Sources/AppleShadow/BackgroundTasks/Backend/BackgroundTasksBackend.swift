#if !canImport(UIKit)
    /// Shadow only, not Apple API: the system behind `BGTaskScheduler` and `BGTask`.
    public protocol BackgroundTasksBackend: AnyObject {
        func register(taskIdentifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool
        func submit(_ request: BGTaskRequest) throws
        func taskCompleted(_ task: BGTask, success: Bool)
    }

    /// Shadow only: where BackgroundTasks finds its backend.
    public enum BackgroundTasksShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it).
        nonisolated(unsafe) public static var backend: any BackgroundTasksBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: BackgroundTasksBackend {
            func register(taskIdentifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool {
                uninstalled()
            }
            func submit(_ request: BGTaskRequest) throws { uninstalled() }
            func taskCompleted(_ task: BGTask, success: Bool) { uninstalled() }
        }
    }

    func uninstalled(_ what: String = #function) -> Never {
        preconditionFailure(
            "AppleShadow: BackgroundTasks' \(what) used before a backend was installed; set ShadowSystem.backend first")
    }
#endif
