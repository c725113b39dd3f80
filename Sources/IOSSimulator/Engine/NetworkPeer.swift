package import BackgroundCore
package import LocationLog

/// Where the simulated phone's uploads and heartbeats go when they leave the simulator.
///
/// Without a peer the phone talks to an in-memory model of the server (`SimulatedServer`), which
/// is what `simulate` and `compare` use. `bgtrack demo` plugs in a peer that speaks real HTTP to
/// a real `bgtrack serve`. Calls are synchronous: the simulated world stands still while a real
/// request is in flight, so the day stays deterministic up to what the real server answers.
package protocol SimulatedNetworkPeer: AnyObject, Sendable {
    /// Uploads the phone's oldest pending samples and says what the server answered.
    func upload(_ batch: [Sample], at now: Instant) -> UploadOutcome
    /// Uploads them with the phone's pending gap intervals (batch version 2); the default sends
    /// the samples alone, and the gaps stay pending.
    func upload(_ batch: [Sample], gaps: [WireGap], at now: Instant) -> UploadOutcome
    /// One heartbeat of the logged-in session (logging in first when there is no session): the
    /// HTTP answer the phone's heartbeat request gets.
    func heartbeat(at now: Instant) -> HostedAnswer
    /// The server revokes the session (the scenario's `revoke-session`).
    func revokeSession(at now: Instant)
    /// The user logs in again (the scenario's `renew-session`): the next heartbeat opens a new session.
    func renewSession(at now: Instant)
    /// An upload was due but the phone had no network (a scenario outage): nothing was sent. A
    /// background session's transfer is told once: the system then holds it until the network is back.
    func uploadFailedOffline(at now: Instant)
    /// Distinct samples the server acknowledged during this run.
    var acknowledgedSampleCount: Int { get }
    /// The simulated clock reached `now` (called before every event; keep it cheap).
    func advance(to now: Instant)
}

extension SimulatedNetworkPeer {
    package func upload(_ batch: [Sample], gaps: [WireGap], at now: Instant) -> UploadOutcome {
        upload(batch, at: now)
    }
}
