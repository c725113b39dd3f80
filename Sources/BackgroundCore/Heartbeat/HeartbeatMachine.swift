/// Keeps a login alive (seed 000): while logged in, a heartbeat every `interval`; a rejected
/// session stops keep-alive work and asks the user to log in again; a one-time warning per
/// background stint when background time is nearly out.
///
/// Any successful exchange with the server (an upload) counts as a heartbeat, so a beat is sent
/// only when nothing else reached the server within `interval`. Each request wakes the cellular
/// radio for about ten seconds of tail energy, so the default interval matches the 30-minute
/// upload interval and uploads carry the liveness; servers should set their "offline" threshold
/// above the interval the phones use.
///
/// ```swift
/// var heartbeat = HeartbeatMachine()
/// shell.perform(heartbeat.handle(.loggedIn, at: now))       // → sendHeartbeat, timer
/// shell.perform(heartbeat.handle(.response(.rejected(status: 401)), at: later))
/// // → cancelTimer, stopKeepAlive, notify(.loginExpired)
/// ```
public struct HeartbeatMachine: Sendable {
    public static let timer: TimerID = "heartbeat"

    public struct Configuration: Hashable, Sendable {
        public var interval: Duration
        /// Warn once when background time remaining drops under this.
        public var backgroundTimeWarning: Duration

        public init(interval: Duration = .seconds(1800), backgroundTimeWarning: Duration = .seconds(30)) {
            self.interval = interval
            self.backgroundTimeWarning = backgroundTimeWarning
        }
    }

    public enum Response: Hashable, Sendable {
        /// The server extended the session.
        case active(expiresAt: Instant)
        /// The server refused the session (401/403): revoked or expired.
        case rejected(status: Int)
        /// Network error or 5xx: try again at the next beat.
        case failed
    }

    public enum Event: Hashable, Sendable {
        case loggedIn
        case loggedOut
        case timerFired(TimerID)
        case response(Response)
        /// The shell's reading of `backgroundTimeRemaining` while only a task keeps the app running.
        case backgroundTimeRemaining(Duration)
        case enteredForeground
        /// Another request to the server succeeded (it proves the session is alive).
        case serverContact
    }

    public enum Action: Hashable, Sendable {
        case sendHeartbeat
        case scheduleTimer(TimerID, at: Instant)
        case cancelTimer(TimerID)
        /// Stop every keep-alive strategy: without a session, uploads would be refused anyway.
        case stopKeepAlive
        case notify(UserNotice)
    }

    /// The session as the machine knows it, read-only for shells and tests.
    public enum Status: Hashable, Sendable {
        case loggedOut
        case active(expiresAt: Instant?)
        case rejected(status: Int)
    }

    /// A logged-in session: what a heartbeat needs to know only while there is one.
    private struct Session: Sendable {
        /// Until the server's answer to the last beat says otherwise.
        var expiresAt: Instant?
        /// A beat was sent and its answer has not come.
        var beatInFlight: Bool
        /// The last successful exchange with the server (a beat or another request).
        var lastContact: Instant?
        /// The low-background-time warning was given in this background stint.
        var warnedThisStint: Bool
    }

    private enum State: Sendable {
        case loggedOut
        case active(Session)
        case rejected(status: Int)
    }

    public let configuration: Configuration
    private var state = State.loggedOut

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public var status: Status {
        switch state {
        case .loggedOut: .loggedOut
        case .active(let session): .active(expiresAt: session.expiresAt)
        case .rejected(let status): .rejected(status: status)
        }
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Action] {
        switch (event, state) {
        case (.loggedIn, _):
            // A login starts a new session: a beat in flight, no earlier contact, no warning yet.
            state = .active(Session(expiresAt: nil, beatInFlight: true, lastContact: nil, warnedThisStint: false))
            return [.sendHeartbeat, .scheduleTimer(Self.timer, at: now + configuration.interval)]
        case (.loggedOut, _):
            state = .loggedOut
            return [.cancelTimer(Self.timer)]
        case (.timerFired(Self.timer), .active(var session)):
            if let lastContact = session.lastContact, now - lastContact < configuration.interval {
                return [.scheduleTimer(Self.timer, at: lastContact + configuration.interval)]
            }
            let next: Action = .scheduleTimer(Self.timer, at: now + configuration.interval)
            if session.beatInFlight { return [next] }
            session.beatInFlight = true
            state = .active(session)
            return [.sendHeartbeat, next]
        case (.serverContact, .active(var session)):
            session.lastContact = now
            state = .active(session)
            return []
        case (.response(.active(let expiresAt)), .active(var session)):
            session.beatInFlight = false
            session.lastContact = now
            session.expiresAt = expiresAt
            state = .active(session)
            return []
        case (.response(.failed), .active(var session)):
            session.beatInFlight = false
            state = .active(session)
            return []
        case (.response(.rejected(let status)), .active):
            state = .rejected(status: status)
            return [.cancelTimer(Self.timer), .stopKeepAlive, .notify(.loginExpired)]
        case (.backgroundTimeRemaining(let remaining), .active(var session)):
            guard remaining < configuration.backgroundTimeWarning, !session.warnedThisStint else { return [] }
            session.warnedThisStint = true
            state = .active(session)
            return [.notify(.backgroundTimeRunningOut)]
        case (.enteredForeground, .active(var session)):
            session.warnedThisStint = false
            state = .active(session)
            return []
        default:
            return []
        }
    }
}
