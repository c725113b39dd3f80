import BackgroundCore
import Testing

@Suite struct HeartbeatMachineTests {
    let start = Instant(milliseconds: 10_000_000)

    @Test func beatsEveryIntervalWhileLoggedIn() {
        var machine = HeartbeatMachine(configuration: .init(interval: .seconds(600)))
        #expect(
            machine.handle(.loggedIn, at: start) == [
                .sendHeartbeat, .scheduleTimer(HeartbeatMachine.timer, at: start + .seconds(600)),
            ])
        _ = machine.handle(.response(.active(expiresAt: start + .seconds(3600))), at: start)
        let later = start + .seconds(600)
        #expect(
            machine.handle(.timerFired(HeartbeatMachine.timer), at: later) == [
                .sendHeartbeat, .scheduleTimer(HeartbeatMachine.timer, at: later + .seconds(600)),
            ])
    }

    @Test func anUploadCountsAsAHeartbeat() {
        var machine = HeartbeatMachine(configuration: .init(interval: .seconds(600)))
        _ = machine.handle(.loggedIn, at: start)
        _ = machine.handle(.response(.active(expiresAt: start + .seconds(3600))), at: start)
        _ = machine.handle(.serverContact, at: start + .seconds(500))
        let effects = machine.handle(.timerFired(HeartbeatMachine.timer), at: start + .seconds(600))
        #expect(effects == [.scheduleTimer(HeartbeatMachine.timer, at: start + .seconds(1100))])
    }

    @Test func aRejectedSessionStopsKeepAliveAndAsksToLogIn() {
        var machine = HeartbeatMachine()
        _ = machine.handle(.loggedIn, at: start)
        let effects = machine.handle(.response(.rejected(status: 401)), at: start)
        #expect(effects == [.cancelTimer(HeartbeatMachine.timer), .stopKeepAlive, .notify(.loginExpired)])
        #expect(machine.status == .rejected(status: 401))
        #expect(machine.handle(.timerFired(HeartbeatMachine.timer), at: start + .seconds(1800)).isEmpty)
        #expect(UserNotice.loginExpired.message.contains("sign in again"))
    }

    @Test func aNetworkFailureRetriesAtTheNextBeat() {
        var machine = HeartbeatMachine(configuration: .init(interval: .seconds(60)))
        _ = machine.handle(.loggedIn, at: start)
        #expect(machine.handle(.response(.failed), at: start).isEmpty)
        #expect(machine.handle(.timerFired(HeartbeatMachine.timer), at: start + .seconds(60)).contains(.sendHeartbeat))
    }

    @Test func warnsOncePerBackgroundStint() {
        var machine = HeartbeatMachine()
        _ = machine.handle(.loggedIn, at: start)
        #expect(machine.handle(.backgroundTimeRemaining(.seconds(45)), at: start).isEmpty)
        #expect(
            machine.handle(.backgroundTimeRemaining(.seconds(29)), at: start) == [.notify(.backgroundTimeRunningOut)])
        #expect(machine.handle(.backgroundTimeRemaining(.seconds(10)), at: start).isEmpty)
        _ = machine.handle(.enteredForeground, at: start)
        #expect(
            machine.handle(.backgroundTimeRemaining(.seconds(10)), at: start) == [.notify(.backgroundTimeRunningOut)])
    }
}
