import BackgroundCore
import LocationLog

extension Simulation {
    /// The user logs in again after the server revoked the session: the app comes to the
    /// foreground, gets the new credentials (uploads held by a 401/403 resume), and tracking starts
    /// afresh, as an app's `start()` after a login would do.
    mutating func renewSession() {
        server.revoked = false
        configuration.peer?.renewSession(at: now)
        let trackingStopped = sessionRejectedByApp
        sessionRejectedByApp = false
        // A launch by the user (or a return to the app) logs in and starts tracking.
        let wasRunning = process != nil
        enterForeground(for: 120)
        _ = runHosted("new credentials") { $0.credentialsChanged(system: $1) }
        guard wasRunning, trackingStopped, process != nil else { return }
        report.note(now, "logged in again; tracking restarts")
        deliver(.launched(.user))
        deliverHeartbeat(.loggedIn)
        settle()
    }
}
