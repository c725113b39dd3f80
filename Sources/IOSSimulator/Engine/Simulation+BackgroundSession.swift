import BackgroundCore
import LocationLog

/// Uploads through a background `URLSession` (docs/ios-policy.md §URLSession): the app hands a batch (from a file) to
/// the system, which sends it out of process, while the app is suspended or dead, and then
/// resumes or relaunches the app to hand it the result ([AD-dl], [APG-BG]).
extension Simulation {
    /// When the system starts a task created now. The rate limiter: a task created in the
    /// background waits for a delay that "increases each time the system resumes or relaunches
    /// your app"; and it is discretionary, so off the charger the system may hold it for power.
    var transferDelay: Duration {
        guard process?.state != .foreground else { return .zero }
        return urlSession.startDelay(
            base: profile.duration(.urlSessionStartDelay),
            discretionary: profile.duration(.urlSessionDiscretionaryDelay), charging: charging)
    }

    /// The app handed its background session an upload (it keeps one at a time).
    mutating func handOffHostedUpload(_ upload: HostedUpload) {
        let delay = transferDelay
        guard
            urlSession.handOff(
                BackgroundURLSession.Transfer(
                    samples: upload.samples, gaps: upload.gaps, startsAt: now + delay,
                    description: upload.description, device: upload.device))
        else {
            report.violation(now, "the app started a second background upload while one was in flight")
            return
        }
        report.note(
            now,
            "background upload of \(upload.samples.count) samples handed to the system, starts in \(Int(delay.seconds)) s"
        )
    }

    /// Every simulated minute: the system sends a due transfer when the network is up (it retries
    /// by itself until then), then gives the app the result, resuming or relaunching it.
    mutating func runBackgroundTransferIfDue() {
        guard let transfer = urlSession.transfer else { return }
        if transfer.outcome == nil {
            guard now >= transfer.startsAt else { return }
            guard configuration.scenario.networkUp(at: scenarioSeconds) else {
                if urlSession.waitForNetwork() { configuration.peer?.uploadFailedOffline(at: now) }
                return
            }
            energy.radioBurst(at: now, profile: profile)
            urlSession.finished(
                configuration.peer?.upload(transfer.samples, gaps: transfer.gaps, at: now)
                    ?? server.receive(transfer.samples, gaps: transfer.gaps, device: transfer.device, at: now))
            report.backgroundTransfers += 1
        }
        switch process?.state {
        case .foreground?, .background?:
            break
        case .suspended?:
            urlSession.resumedApp()
            wake(.backgroundURLSession)
        case nil:
            // Not after a force quit (the transfer was cancelled then), nor before the first
            // unlock (the store is protected until then).
            guard !timeline.forceQuit, timeline.isUnlocked else { return }
            urlSession.resumedApp()
            launch(.backgroundURLSession)
        }
        if isRunning { afterAppCode() }
    }

    /// Gives the running app the result the system holds: exactly the acknowledged samples leave
    /// the store (`application(_:handleEventsForBackgroundURLSession:)` and the delegate's
    /// `didCompleteWithError`).
    mutating func takeTransferOutcome() {
        guard isRunning, let answer = urlSession.takeAnswer() else { return }
        deliverUploadAnswer(answer.description, outcome: answer.outcome)
    }

    /// A force quit cancels the session's transfers and the system relaunches nothing; the app
    /// hears of the cancellation when the user next opens it ([AD-bgcfg]).
    mutating func cancelBackgroundTransferOnForceQuit() {
        guard let transfer = urlSession.transfer, transfer.outcome == nil else { return }
        urlSession.finished(
            .networkError(message: "the system cancelled the background upload: the app was force-quit"))
        report.note(now, "force quit cancels the background upload of \(transfer.samples.count) samples")
    }
}
