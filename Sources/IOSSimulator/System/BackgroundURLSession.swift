import BackgroundCore
import LocationLog

/// The app's background `URLSession` as the system runs it (docs/ios-policy.md §URLSession): one
/// upload at a time, sent out of process after the rate limiter's delay, its answer held until
/// the app runs. It is system state: the transfer outlives the process (a force quit cancels it).
///
/// ```swift
/// var session = BackgroundURLSession()
/// session.handOff(transfer)                   // `false` while another is in flight
/// session.finished(outcome)                   // sent: the answer waits for the app
/// session.takeAnswer()                        // → (description, outcome), once
/// ```
struct BackgroundURLSession: Sendable {
    /// A batch the system is sending for the app, or whose result waits for the app to run.
    struct Transfer: Sendable {
        var samples: [Sample]
        /// The gap intervals the batch carries.
        var gaps: [WireGap] = []
        /// When the system starts it: later for a task created in the background ([AD-dl]).
        var startsAt: Instant
        /// The server's answer, once the transfer ended; the app has not been given it yet.
        var outcome: UploadOutcome?
        /// The task's description (its answer goes back to the app with it).
        var description: String
        /// It came due in an outage and the system holds it for the network (told to the peer once).
        var waitedForNetwork = false
        /// The device the batch names, if any.
        var device: String?
    }

    /// The batch the system holds for the app.
    private(set) var transfer: Transfer?
    /// Resumes and relaunches for the session's events since the app was last on screen (the
    /// rate limiter's delay grows with them).
    private(set) var resumes = 0

    /// What `getAllTasks` lists: the description of the upload in flight or with an answer held.
    var inFlight: Set<String> { Set([transfer?.description].compactMap { $0 }) }

    /// The delay before the system starts a task created now in the background: a base delay
    /// that doubles with each resume or relaunch, plus the discretionary delay off the charger.
    func startDelay(base: Duration, discretionary: Duration, charging: Bool) -> Duration {
        var delay = Duration.zero
        if resumes > 0 { delay = base * Double(1 << min(resumes - 1, 16)) }
        if !charging { delay += discretionary }
        return delay
    }

    /// The app hands over an upload; `false` (nothing taken) while another is in flight.
    mutating func handOff(_ new: Transfer) -> Bool {
        guard transfer == nil else { return false }
        transfer = new
        return true
    }

    /// The transfer came due in an outage; `true` the first time (the peer hears of it once).
    mutating func waitForNetwork() -> Bool {
        guard var current = transfer, !current.waitedForNetwork else { return false }
        current.waitedForNetwork = true
        transfer = current
        return true
    }

    /// The transfer ended with the server's answer (or the system's error).
    mutating func finished(_ outcome: UploadOutcome) {
        transfer?.outcome = outcome
    }

    /// The answer goes to the running app, once.
    mutating func takeAnswer() -> (description: String, outcome: UploadOutcome)? {
        guard let transfer, let outcome = transfer.outcome else { return nil }
        self.transfer = nil
        return (transfer.description, outcome)
    }

    /// The system resumes or relaunches the app for the session's events.
    mutating func resumedApp() { resumes += 1 }

    /// The user opened the app: the rate limiter starts over.
    mutating func userOpened() { resumes = 0 }
}
