import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import BackgroundTasks
#else
    import ShadowBackgroundTasks
#endif

extension BackgroundTracker {
    /// Registers the refresh and processing identifiers; iOS requires every registration before
    /// `application(_:didFinishLaunchingWithOptions:)` returns. Launch handlers run on the main
    /// queue.
    func registerBackgroundTasks() {
        let tasks: [(String, LaunchReason)] = [
            (BackgroundTaskIdentifiers.refresh, .backgroundRefresh),
            (BackgroundTaskIdentifiers.processing, .backgroundProcessing),
        ]
        for (identifier, reason) in tasks {
            let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: .main) {
                [weak self] task in
                MainActor.assumeIsolated { self?.run(task, reason: reason) }
            }
            if !registered {
                log(.error, "BGTaskScheduler refused \(identifier): list it under BGTaskSchedulerPermittedIdentifiers")
            }
        }
    }

    /// A refresh or processing task: wake the machines, give sync its chance, and complete.
    /// Uploads go through the background session, so the task need not wait for them.
    private func run(_ task: BGTask, reason: LaunchReason) {
        task.expirationHandler = { [weak task] in task?.setTaskCompleted(success: false) }
        // Settings changed while the app was suspended reach the strategy before the wake.
        systemSettingsChanged()
        deliver(.woke(reason))
        syncWake()
        task.setTaskCompleted(success: true)
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

    private func submit(_ request: BGTaskRequest) {
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            // Background App Refresh off, or the Simulator: tracking goes on without this net.
            log(.warning, "BGTaskScheduler did not accept \(request.identifier): \(error)")
        }
    }
}
