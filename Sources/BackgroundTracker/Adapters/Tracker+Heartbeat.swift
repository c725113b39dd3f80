import BackgroundCore
import Foundation
import LocationLog

extension Tracker {
    /// Runs the heartbeat machine on one event and carries out its effects. Without a session
    /// token (`Configuration.sessionToken`) there is no heartbeat: uploads carry the liveness.
    func deliverHeartbeat(_ event: HeartbeatMachine.Event) {
        guard var machine = heartbeat else { return }
        var pending = [event]
        while !pending.isEmpty {
            let effects = machine.handle(pending.removeFirst(), at: clock.now)
            heartbeat = machine
            for effect in effects {
                switch effect {
                case .sendHeartbeat:
                    heartbeatTransport?.send { [weak self] response in
                        self?.deliverHeartbeat(.response(response))
                    }
                case .scheduleTimer(let id, let instant):
                    clock.schedule(id, at: instant) { [weak self] in self?.deliverHeartbeat(.timerFired(id)) }
                case .cancelTimer(let id):
                    clock.cancel(id)
                case .stopKeepAlive:
                    log(.warning, "the server ended the session: tracking stops until the user logs in again")
                    stop(because: "the server ended the session")
                case .notify(let notice):
                    postNotice(notice)
                }
            }
            guard let current = heartbeat else { return }
            machine = current
        }
        publish()
    }
}
