import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import BackgroundTasks
#else
    import ShadowBackgroundTasks
#endif

extension Tracker {
    /// Registers the refresh and processing identifiers the app's `Info.plist` permits
    /// (`BGTaskSchedulerPermittedIdentifiers`; iOS refuses any other, `register` returns false);
    /// iOS raises an exception for any registration after
    /// `application(_:didFinishLaunchingWithOptions:)` returned, so this runs only from
    /// `didFinishLaunching(_:)`. Launch handlers run on the main
    /// queue.
    func registerBackgroundTasks() {
        let tasks: [(String, LaunchReason)] = [
            (BackgroundTaskIdentifiers.refresh, .backgroundRefresh),
            (BackgroundTaskIdentifiers.processing, .backgroundProcessing),
        ]
        for (identifier, reason) in tasks {
            guard appInfo.permittedTaskIdentifiers.contains(identifier) else {
                if configuration.strategy.requirements.taskIdentifiers.contains(identifier) {
                    log(
                        .warning,
                        "\(identifier) is not under BGTaskSchedulerPermittedIdentifiers in the app's Info.plist: "
                            + "add it, or \(configuration.strategy.rawValue) runs without that wake")
                }
                continue
            }
            let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: .main) {
                [weak self] task in
                MainActor.assumeIsolated { self?.run(task, reason: reason) }
            }
            if registered {
                registeredTasks.insert(identifier)
            } else {
                log(.error, "BGTaskScheduler refused \(identifier): list it under BGTaskSchedulerPermittedIdentifiers")
            }
        }
    }

    /// A refresh or processing task: wake the machines and give sync its chance; the task is
    /// completed when that work is done (the fix the wake asked for has arrived or failed, and
    /// the upload was handed to the background session) or when iOS says its time is up.
    private func run(_ task: BGTask, reason: LaunchReason) {
        let wake = WakeTask(task)
        // iOS may call this on any thread: it completes the task there and touches nothing else.
        task.expirationHandler = { @Sendable [weak wake] in wake?.complete(success: false) }
        wakeTasks.append(wake)
        // Settings changed while the app was suspended reach the strategy before the wake.
        systemSettingsChanged()
        deliver(.woke(reason))
        syncWake()
        completeWakeTasksIfDone()
    }

    /// Completes the running refresh and processing tasks once nothing they woke for is pending.
    func completeWakeTasksIfDone() {
        wakeTasks.removeAll { !$0.isOpen }
        guard !wakeTasks.isEmpty, location?.isAwaitingFix != true else { return }
        for wake in wakeTasks { wake.complete(success: true) }
        wakeTasks.removeAll()
    }

    func scheduleRefresh(earliest: Instant) {
        let request = BGAppRefreshTaskRequest(identifier: BackgroundTaskIdentifiers.refresh)
        request.earliestBeginDate = Date(timeIntervalSince1970: earliest.seconds)
        submit(request)
    }

    /// On the charger and online: "typically delivered overnight", minutes of runtime.
    func scheduleProcessing(earliest: Instant) {
        let request = BGProcessingTaskRequest(identifier: BackgroundTaskIdentifiers.processing)
        request.earliestBeginDate = Date(timeIntervalSince1970: earliest.seconds)
        request.requiresExternalPower = true
        request.requiresNetworkConnectivity = true
        submit(request)
    }

    /// Submits only what this process registered: iOS refuses (`notPermitted`) an identifier
    /// the plist does not list, and would launch the app for one with no handler.
    private func submit(_ request: BGTaskRequest) {
        guard registeredTasks.contains(request.identifier) else { return }
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            // Background App Refresh off, or the Simulator: tracking goes on without this net.
            log(.warning, "BGTaskScheduler did not accept \(request.identifier): \(error)")
        }
    }
}

/// A running refresh or processing task, completed exactly once: by the shell when the wake's
/// work is done, or by the expiration handler, which iOS may call on any thread.
final class WakeTask: @unchecked Sendable {
    // `task` is read and cleared only under `lock`.
    private let lock = NSLock()
    private var task: BGTask?

    init(_ task: BGTask) { self.task = task }

    var isOpen: Bool { lock.withLock { task != nil } }

    /// Completes the task if nobody has yet; later calls do nothing.
    func complete(success: Bool) {
        let open = lock.withLock {
            defer { task = nil }
            return task
        }
        guard let open else { return }
        open.expirationHandler = nil
        open.setTaskCompleted(success: success)
    }
}
