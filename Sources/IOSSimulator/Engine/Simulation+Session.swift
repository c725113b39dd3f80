import BackgroundCore
import LocationLog

extension Simulation {
    /// The user logs in again after the server revoked the session: the app comes to the
    /// foreground (launching if need be) and gets the new credentials; uploads held by a 401/403
    /// resume, and an app whose tracking the session's end had stopped starts it again.
    mutating func renewSession() {
        server.revoked = false
        configuration.peer?.renewSession(at: now)
        enterForeground(for: 120)
        _ = runHosted("new credentials") { $0.credentialsChanged(system: $1) }
        settle()
    }
}
