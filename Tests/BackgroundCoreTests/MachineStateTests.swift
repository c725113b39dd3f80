import BackgroundCore
import Testing

/// The machines' states as their read-only accessors show them: what a transition keeps and
/// what it drops (issue 26: states are enums, so no loose variable outlives its state).
@Suite struct MachineStateTests {
    let start = Instant(milliseconds: 1_699_999_920_000)  // a multiple of 120 s

    func fix(at time: Instant) -> LocationFix {
        LocationFix(timestamp: time, latitude: 31.2, longitude: 121.4, horizontalAccuracy: 8)
    }

    @Test func aStoppedKeepAliveMachineForgetsTheDeadManNoticeAndCannotBeRearmed() {
        var machine = KeepAliveMachine(strategy: .finiteTask, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: start)
        _ = machine.handle(.locationFix(fix(at: start + .seconds(5)), source: .oneShot), at: start + .seconds(5))
        #expect(machine.deadManDue == start + .seconds(5) + machine.deadManLead)
        #expect(!machine.isStopped)
        _ = machine.handle(.stop, at: start + .seconds(10))
        #expect(machine.isStopped)
        #expect(machine.deadManDue == nil)
        machine.restoreDeadManNotice(due: start + .seconds(900))
        #expect(machine.deadManDue == nil)
        #expect(machine.handle(.launched(.user), at: start + .seconds(20)).isEmpty)
    }

    @Test func theRecordActionCarriesTheSlotTheSamplingMachineChose() throws {
        var machine = KeepAliveMachine(strategy: .finiteTask, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: start)
        let late = start + .seconds(245)  // the third slot
        let actions = machine.handle(.locationFix(fix(at: late), source: .oneShot), at: late)
        let accepted = try #require(
            actions.lazy.compactMap { if case .recordSample(let accepted) = $0 { accepted } else { nil } }.first)
        #expect(accepted.slot == machine.context.sampling.slot(containing: start) + 2)
        #expect(accepted.fix == fix(at: late))
        #expect(accepted.trigger == .timer)
        #expect(accepted.state == .foreground)
    }

    @Test func retriesAreCountedPerSlotAndStopAtTheLimit() {
        var machine = KeepAliveMachine(strategy: .finiteTask, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: start)
        var coarse = fix(at: start + .seconds(1))
        coarse.horizontalAccuracy = 900
        var retries = 0
        for second in 1...6 {
            coarse.timestamp = start + .seconds(Int64(second))
            let actions = machine.handle(.locationFix(coarse, source: .oneShot), at: coarse.timestamp)
            if actions.contains(where: {
                if case .scheduleTimer(KeepAliveMachine.retryTimer, _) = $0 { true } else { false }
            }) {
                retries += 1
            }
        }
        #expect(retries == KeepAliveMachine.retriesPerSlot)
        // The next slot may retry again.
        coarse.timestamp = start + .seconds(125)
        let next = machine.handle(.locationFix(coarse, source: .oneShot), at: coarse.timestamp)
        #expect(
            next.contains(
                .scheduleTimer(KeepAliveMachine.retryTimer, at: coarse.timestamp + KeepAliveMachine.retryDelay)))
    }

    @Test func samplingBeforeStartNeedsNoFixButRemembersRestoredSlots() {
        var sampling = SamplingMachine()
        sampling.restore(lastSampleAt: start + .seconds(3))
        #expect(!sampling.needsFix(at: start + .seconds(10)))
        _ = sampling.handle(.start, at: start + .seconds(10))
        #expect(!sampling.needsFix(at: start + .seconds(10)))  // the restored slot stays filled
        #expect(sampling.needsFix(at: start + .seconds(130)))
    }

    @Test func heartbeatStatusFollowsLoginAnswersAndLogout() {
        var machine = HeartbeatMachine(configuration: .init(interval: .seconds(600)))
        #expect(machine.status == .loggedOut)
        _ = machine.handle(.loggedIn, at: start)
        #expect(machine.status == .active(expiresAt: nil))
        _ = machine.handle(.response(.active(expiresAt: start + .seconds(3600))), at: start)
        #expect(machine.status == .active(expiresAt: start + .seconds(3600)))
        _ = machine.handle(.response(.rejected(status: 403)), at: start + .seconds(1))
        #expect(machine.status == .rejected(status: 403))
        // Answers and contact after a rejection change nothing until the user logs in again.
        #expect(machine.handle(.response(.active(expiresAt: start)), at: start + .seconds(2)).isEmpty)
        #expect(machine.status == .rejected(status: 403))
        _ = machine.handle(.loggedOut, at: start + .seconds(3))
        #expect(machine.status == .loggedOut)
    }

    @Test func aNewLoginStartsAFreshSession() {
        var machine = HeartbeatMachine(configuration: .init(interval: .seconds(600)))
        _ = machine.handle(.loggedIn, at: start)
        _ = machine.handle(.serverContact, at: start + .seconds(100))
        _ = machine.handle(.response(.rejected(status: 401)), at: start + .seconds(101))
        let again = start + .seconds(200)
        _ = machine.handle(.loggedIn, at: again)
        // The beat sent at login is still out: the timer only reschedules.
        #expect(
            machine.handle(.timerFired(HeartbeatMachine.timer), at: again + .seconds(600)) == [
                .scheduleTimer(HeartbeatMachine.timer, at: again + .seconds(1200))
            ])
        #expect(
            machine.handle(.backgroundTimeRemaining(.seconds(5)), at: again).contains(
                .notify(.backgroundTimeRunningOut)))
    }
}
