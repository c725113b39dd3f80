import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import BackgroundTasks
    import UIKit
#else
    import ShadowBackgroundTasks
    import ShadowUIKit
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
        let wake = WakeTask(task, began: clock.now)
        // iOS may call this on any thread: it completes the task there and touches nothing else.
        task.expirationHandler = { @Sendable [weak wake] in wake?.complete(.expired) }
        runWake(wake, reason: reason)
    }

    /// A silent push (``Tracker/didReceiveRemoteNotification(fetchCompletionHandler:)``): the
    /// handler is called when the wake's work is done, or with `.failed` at `pushDeadline` (iOS
    /// terminates an app that has not called it within 30 s, [AD-drn]).
    func runSilentPush(_ completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        let now = clock.now
        let deadline = TimerID("silent-push-\(now.milliseconds)")
        let wake = WakeTask(push: completionHandler, began: now, deadline: deadline)
        clock.schedule(deadline, at: now + Self.pushDeadline) { [weak self, weak wake] in
            guard let wake, wake.isOpen else { return }
            wake.complete(.expired)
            self?.log(.warning, "a silent push's work was not done in \(Self.pushDeadline): its handler got .failed")
        }
        runWake(wake, reason: .silentPush)
    }

    /// How long the tracker works for a silent push before it calls the handler anyway: iOS
    /// allows 30 s.
    static let pushDeadline = Duration.seconds(25)

    private func runWake(_ wake: WakeTask, reason: LaunchReason) {
        wakeTasks.append(wake)
        // Settings changed while the app was suspended reach the strategy before the wake.
        systemSettingsChanged()
        deliver(.woke(reason))
        syncWake()
        completeWakeTasksIfDone()
    }

    /// Completes the running refresh and processing tasks and push handlers once nothing they
    /// woke for is pending; a wake that stored a sample reports new data.
    func completeWakeTasksIfDone() {
        wakeTasks.removeAll { !$0.isOpen }
        guard !wakeTasks.isEmpty, location?.isAwaitingFix != true else { return }
        let newest = (try? withStore { try $0.newestSampleTime() }) ?? nil
        for wake in wakeTasks {
            if let deadline = wake.deadline { clock.cancel(deadline) }
            wake.complete(.done(newData: newest.map { $0 >= wake.began } ?? false))
        }
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

/// A wake iOS gave the app time for, finished exactly once: a running refresh or processing task
/// (`setTaskCompleted`) or a silent push (its fetch completion handler). The shell finishes it
/// when the wake's work is done; a task's expiration handler, which iOS may call on any thread,
/// or the push's own deadline when time is up.
final class WakeTask: @unchecked Sendable {
    enum Outcome {
        /// The work is done; `newData`: it stored a sample.
        case done(newData: Bool)
        case expired
    }

    private enum Pending {
        case task(BGTask)
        case push((UIBackgroundFetchResult) -> Void)
    }

    // `pending` is read and cleared only under `lock`.
    private let lock = NSLock()
    private var pending: Pending?
    /// When the wake began: a sample stored from then on is its new data.
    let began: Instant
    /// The push's deadline timer (a task has iOS's expiration handler instead).
    let deadline: TimerID?

    init(_ task: BGTask, began: Instant) {
        pending = .task(task)
        self.began = began
        deadline = nil
    }

    init(push handler: @escaping (UIBackgroundFetchResult) -> Void, began: Instant, deadline: TimerID) {
        pending = .push(handler)
        self.began = began
        self.deadline = deadline
    }

    var isOpen: Bool { lock.withLock { pending != nil } }

    /// Finishes the wake if nobody has yet; later calls do nothing.
    func complete(_ outcome: Outcome) {
        let open = lock.withLock {
            defer { pending = nil }
            return pending
        }
        switch (open, outcome) {
        case (nil, _): return
        case (.task(let task), _):
            task.expirationHandler = nil
            if case .expired = outcome {
                task.setTaskCompleted(success: false)
            } else {
                task.setTaskCompleted(success: true)
            }
        case (.push(let handler), .done(let newData)): handler(newData ? .newData : .noData)
        case (.push(let handler), .expired): handler(.failed)
        }
    }
}
