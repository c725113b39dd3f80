import BackgroundCore
import LocationLog

/// Uploads through a background `URLSession` (docs/ios-policy.md §URLSession): the app hands a batch (from a file) to
/// the system, which sends it out of process, while the app is suspended or dead, and then
/// resumes or relaunches the app to hand it the result ([AD-dl], [APG-BG]).
extension Simulation {
    /// A batch the system is sending for the app, or whose result waits for the app to run.
    struct BackgroundTransfer: Sendable {
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

    /// When the system starts a task created now. The rate limiter: a task created in the
    /// background waits for a delay that "increases each time the system resumes or relaunches
    /// your app"; and it is discretionary, so off the charger the system may hold it for power.
    var transferDelay: Duration {
        guard process?.state != .foreground else { return .zero }
        var delay = Duration.zero
        if sessionResumes > 0 {
            delay = profile.duration(.urlSessionStartDelay) * Double(1 << min(sessionResumes - 1, 16))
        }
        if !charging { delay += profile.duration(.urlSessionDiscretionaryDelay) }
        return delay
    }

    /// The app handed its background session an upload (it keeps one at a time).
    mutating func handOffHostedUpload(_ upload: HostedUpload) {
        guard transfer == nil else {
            report.violation(now, "the app started a second background upload while one was in flight")
            return
        }
        let delay = transferDelay
        transfer = BackgroundTransfer(
            samples: upload.samples, gaps: upload.gaps, startsAt: now + delay, description: upload.description,
            device: upload.device)
        report.note(
            now,
            "background upload of \(upload.samples.count) samples handed to the system, starts in \(Int(delay.seconds)) s"
        )
    }

    /// Every simulated minute: the system sends a due transfer when the network is up (it retries
    /// by itself until then), then gives the app the result, resuming or relaunching it.
    mutating func runBackgroundTransferIfDue() {
        guard var transfer else { return }
        if transfer.outcome == nil {
            guard now >= transfer.startsAt else { return }
            guard configuration.scenario.networkUp(at: scenarioSeconds) else {
                if !transfer.waitedForNetwork {
                    transfer.waitedForNetwork = true
                    self.transfer = transfer
                    configuration.peer?.uploadFailedOffline(at: now)
                }
                return
            }
            energy.radioBurst(at: now, profile: profile)
            transfer.outcome =
                configuration.peer?.upload(transfer.samples, gaps: transfer.gaps, at: now)
                ?? server.receive(transfer.samples, gaps: transfer.gaps, device: transfer.device, at: now)
            report.backgroundTransfers += 1
            self.transfer = transfer
        }
        switch process?.state {
        case .foreground?, .background?:
            break
        case .suspended?:
            sessionResumes += 1
            wake(.backgroundURLSession)
        case nil:
            // Not after a force quit (the transfer was cancelled then), nor before the first
            // unlock (the store is protected until then).
            guard !timeline.forceQuit, timeline.isUnlocked else { return }
            sessionResumes += 1
            launch(.backgroundURLSession)
        }
        if isRunning { afterAppCode() }
    }

    /// Gives the running app the result the system holds: exactly the acknowledged samples leave
    /// the store (`application(_:handleEventsForBackgroundURLSession:)` and the delegate's
    /// `didCompleteWithError`).
    mutating func takeTransferOutcome() {
        guard isRunning, let transfer, let outcome = transfer.outcome else { return }
        self.transfer = nil
        deliverUploadAnswer(transfer.description, outcome: outcome)
    }

    /// A force quit cancels the session's transfers and the system relaunches nothing; the app
    /// hears of the cancellation when the user next opens it ([AD-bgcfg]).
    mutating func cancelBackgroundTransferOnForceQuit() {
        guard var transfer, transfer.outcome == nil else { return }
        transfer.outcome = .networkError(message: "the system cancelled the background upload: the app was force-quit")
        self.transfer = transfer
        report.note(now, "force quit cancels the background upload of \(transfer.samples.count) samples")
    }
}
