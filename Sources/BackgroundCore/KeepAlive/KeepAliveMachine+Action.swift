extension KeepAliveMachine {
    /// What a keep-alive machine asks the shell to do.
    public enum Action: Hashable, Sendable {
        case task(BackgroundTaskLedger.Action)
        case scheduleTimer(TimerID, at: Instant)
        case cancelTimer(TimerID)
        case startLocationUpdates(LocationUpdatesRequest)
        case stopLocationUpdates
        /// One fix at the given accuracy (`requestLocation()`), then the service stops.
        case requestFix(LocationAccuracy)
        case startSignificantChanges
        case stopSignificantChanges
        case startVisits
        case stopVisits
        /// Monitor a circular region and relaunch on exit (the "resume region").
        case monitorRegion(latitude: Double, longitude: Double, radius: Double)
        case stopRegionMonitoring
        /// Motion activity updates from the coprocessor (`CMMotionActivityManager`), when the
        /// device has one and the user allows Motion & Fitness; otherwise the shell does nothing.
        case startMotionUpdates
        case stopMotionUpdates
        /// `CLBackgroundActivitySession` (iOS 17+).
        case beginActivitySession
        case endActivitySession
        /// Play silent audio for a duration, or in a loop when `nil` (App Review 2.5.4 risk).
        case playSilentAudio(Duration?)
        case stopAudio
        /// Submit a `BGAppRefreshTaskRequest` no earlier than the date.
        case scheduleRefresh(earliest: Instant)
        /// Submit a `BGProcessingTaskRequest` (external power and network required) no earlier than
        /// the date: minutes of runtime, "typically delivered overnight" while charging (iOS 13+).
        case scheduleProcessing(earliest: Instant)
        /// Store this accepted fix as a sample (the value carries the slot it fills).
        case recordSample(AcceptedFix)
        /// Log a refused fix with the reason.
        case rejectFix(LocationFix, FixRejection)
        case notify(UserNotice)
        /// Keep exactly one pending local notification, the dead-man notice, due `at` (replacing any
        /// earlier one): "Tracking stopped at `lastSample` — open the app to resume". The system
        /// delivers it even if the app is suspended or dead; a healthy app moves it forward with
        /// every sample, so it never fires (issue 12).
        case scheduleDeadManNotice(at: Instant, lastSample: Instant)
        /// Remove the pending dead-man notice (tracking was stopped on purpose).
        case cancelDeadManNotice
        case log(String)
    }
}
