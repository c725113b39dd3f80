package import BackgroundCore

/// A call the app's code made to iOS, grouped by the Apple framework it belongs to: what
/// `HostedResult.effects` hands the simulator, which routes each group to the subsystem that
/// implements that framework (docs/simulator.md §Subsystems).
package enum SystemCall: Hashable, Sendable {
    /// `UIApplication`'s background tasks.
    case uiKit(UIKit)
    /// `CLLocationManager` and the location sessions.
    case coreLocation(CoreLocation)
    /// `CMMotionActivityManager`.
    case coreMotion(CoreMotion)
    /// `AVAudioPlayer` (the silent clip that keeps an audio app running).
    case avfAudio(AVFAudio)
    /// `BGTaskScheduler`.
    case backgroundTasks(BackgroundTasks)
    /// `UNUserNotificationCenter`.
    case userNotifications(UserNotifications)
    /// The app's own timers (a dispatch timer on the main queue): they fire only while it runs.
    case timer(Timer)
    /// A line for the report's timeline: something the app did that iOS keeps no state for.
    case note(String)

    /// `beginBackgroundTask(withName:expirationHandler:)` and `endBackgroundTask(_:)`.
    package enum UIKit: Hashable, Sendable {
        /// The task the system handed out as `id` (the app saw it; `.invalid` is never one).
        case beginBackgroundTask(id: BackgroundTaskToken, name: String)
        case endBackgroundTask(id: BackgroundTaskToken)
    }

    /// What the app asked of `CLLocationManager` and the location sessions.
    package enum CoreLocation: Hashable, Sendable {
        case startUpdatingLocation(LocationUpdatesRequest)
        case stopUpdatingLocation
        /// `requestLocation()` at the manager's `desiredAccuracy`.
        case requestLocation(LocationAccuracy)
        case startMonitoringSignificantLocationChanges
        case stopMonitoringSignificantLocationChanges
        case startMonitoringVisits
        case stopMonitoringVisits
        /// `startMonitoring(for:)` of a `CLCircularRegion`.
        case startMonitoring(latitude: Double, longitude: Double, radius: Double)
        case stopMonitoring
        /// `CLBackgroundActivitySession()` created, and invalidated.
        case startBackgroundActivitySession
        case invalidateBackgroundActivitySession
    }

    /// `startActivityUpdates(to:withHandler:)` and `stopActivityUpdates()`.
    package enum CoreMotion: Hashable, Sendable {
        case startActivityUpdates
        case stopActivityUpdates
    }

    /// `AVAudioPlayer.play()` and `stop()`.
    package enum AVFAudio: Hashable, Sendable {
        /// Plays the silent clip for `duration` (`nil`: looping until stopped).
        case play(duration: Duration?)
        case stop
    }

    /// `BGTaskScheduler.submit(_:)`, already judged by the register and submit rules.
    package enum BackgroundTasks: Hashable, Sendable {
        case submit(Request)

        package enum Request: Hashable, Sendable {
            /// A `BGAppRefreshTaskRequest` with its `earliestBeginDate`.
            case refresh(earliest: Instant)
            /// A `BGProcessingTaskRequest` with its `earliestBeginDate`.
            case processing(earliest: Instant)
        }
    }

    /// `UNUserNotificationCenter.add(_:)` and `removePendingNotificationRequests(withIdentifiers:)`.
    package enum UserNotifications: Hashable, Sendable {
        /// A request with no trigger, shown now; `kind` is what the report counts it under.
        case add(kind: String)
        /// The dead-man request: a time-interval trigger due at `due`, whose text names the
        /// newest sample (`lastSample`).
        case addDeadManNotice(due: Instant, lastSample: Instant)
        /// The pending dead-man request removed.
        case removePendingDeadManNotice
    }

    /// A dispatch timer's `schedule` (replacing the one of that name) and `cancel`.
    package enum Timer: Hashable, Sendable {
        case schedule(TimerID, at: Instant)
        case cancel(TimerID)
    }
}
