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

    public enum Effect: Hashable, Sendable {
        case sendHeartbeat
        case scheduleTimer(TimerID, at: Instant)
        case cancelTimer(TimerID)
        /// Stop every keep-alive strategy: without a session, uploads would be refused anyway.
        case stopKeepAlive
        case notify(UserNotice)
    }

    public enum State: Hashable, Sendable {
        case loggedOut
        case active(expiresAt: Instant?)
        case rejected(status: Int)
    }

    public let configuration: Configuration
    public private(set) var state: State = .loggedOut
    private var inFlight = false
    private var warnedThisStint = false
    private var lastContact: Instant?

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Effect] {
        switch (event, state) {
        case (.loggedIn, _):
            state = .active(expiresAt: nil)
            inFlight = true
            return [.sendHeartbeat, .scheduleTimer(Self.timer, at: now + configuration.interval)]
        case (.loggedOut, _):
            state = .loggedOut
            inFlight = false
            return [.cancelTimer(Self.timer)]
        case (.timerFired(Self.timer), .active):
            if let lastContact, now - lastContact < configuration.interval {
                return [.scheduleTimer(Self.timer, at: lastContact + configuration.interval)]
            }
            let next: Effect = .scheduleTimer(Self.timer, at: now + configuration.interval)
            if inFlight { return [next] }
            inFlight = true
            return [.sendHeartbeat, next]
        case (.serverContact, .active):
            lastContact = now
            return []
        case (.response(.active(let expiresAt)), .active):
            inFlight = false
            lastContact = now
            state = .active(expiresAt: expiresAt)
            return []
        case (.response(.failed), .active):
            inFlight = false
            return []
        case (.response(.rejected(let status)), .active):
            inFlight = false
            state = .rejected(status: status)
            return [.cancelTimer(Self.timer), .stopKeepAlive, .notify(.loginExpired)]
        case (.backgroundTimeRemaining(let remaining), .active):
            guard remaining < configuration.backgroundTimeWarning, !warnedThisStint else { return [] }
            warnedThisStint = true
            return [.notify(.backgroundTimeRunningOut)]
        case (.enteredForeground, _):
            warnedThisStint = false
            return []
        default:
            return []
        }
    }
}
