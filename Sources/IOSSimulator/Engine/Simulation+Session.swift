import BackgroundCore
import LocationLog

extension Simulation {
    /// The user logs in again after the server revoked the session: the app comes to the
    /// foreground, uploads held by a 401/403 resume, and tracking starts afresh (the stopped
    /// keep-alive machine is replaced, as an app's `start()` after a login would do).
    mutating func renewSession() {
        server.revoked = false
        configuration.peer?.renewSession(at: now)
        let trackingStopped = sessionRejectedByApp
        sessionRejectedByApp = false
        syncCredentialsChanged()
        // A launch by the user (or a return to the app) logs in and starts tracking.
        let wasRunning = process != nil
        enterForeground(for: 120)
        if hosted != nil { _ = runHosted("new credentials") { $0.credentialsChanged(system: $1) } }
        guard wasRunning, trackingStopped, var process else { return }
        var machine = KeepAliveMachine(
            strategy: configuration.strategy, environment: environment,
            sampling: .init(interval: configuration.samplingInterval), at: now)
        if let lastSampleAt { machine.restoreLastSample(at: lastSampleAt) }
        machine.restoreDeadManNotice(due: notifications.lastDue)
        process.machine = machine
        self.process = process
        report.note(now, "logged in again; tracking restarts")
        deliver(.launched(.user))
        deliverHeartbeat(.loggedIn)
        settle()
    }
}
