import Testing

@testable import BackgroundCore

/// The dead-man notice in the keep-alive machine: moved forward by every accepted sample,
/// cancelled by `.stop`, once per outage.
@Suite struct DeadManMachineTests {
    static let start = Instant(milliseconds: 1_732_492_800_000)

    static func fix(at time: Instant) -> LocationFix {
        LocationFix(timestamp: time, latitude: 31.23, longitude: 121.47, horizontalAccuracy: 10)
    }

    static func scheduled(_ effects: [KeepAliveMachine.Action]) -> (at: Instant, lastSample: Instant)? {
        for effect in effects {
            if case .scheduleDeadManNotice(let at, let lastSample) = effect { return (at, lastSample) }
        }
        return nil
    }

    @Test func everyAcceptedSampleMovesTheNoticeAndStopCancelsIt() throws {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: Self.start)
        #expect(machine.deadManLead == .seconds(600))
        var now = Self.start + .seconds(1)
        let first = try #require(
            Self.scheduled(machine.handle(.locationFix(Self.fix(at: now), source: .oneShot), at: now)))
        #expect(first.at == now + .seconds(600) && first.lastSample == now)
        now += .seconds(120)
        let second = try #require(
            Self.scheduled(machine.handle(.locationFix(Self.fix(at: now), source: .oneShot), at: now)))
        #expect(second.at == now + .seconds(600))
        // A fix in the same slot is not a new sample: the notice stays where it is.
        #expect(
            Self.scheduled(machine.handle(.locationFix(Self.fix(at: now), source: .oneShot), at: now + .seconds(5)))
                == nil)
        #expect(machine.handle(.stop, at: now + .seconds(10)).contains(.cancelDeadManNotice))
    }

    @Test func afterItFiredABackgroundWakeDoesNotRearmItButOpeningTheAppDoes() throws {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: Self.start)
        _ = machine.handle(.enteredBackground, at: Self.start)
        var now = Self.start + .seconds(1)
        _ = machine.handle(.locationFix(Self.fix(at: now), source: .oneShot), at: now)
        // An hour of silence: the notice was delivered at +10 min. A brief wake takes one sample.
        now += .seconds(3_600)
        _ = machine.handle(.woke(.significantChange), at: now)
        #expect(
            Self.scheduled(machine.handle(.locationFix(Self.fix(at: now), source: .significantChange), at: now)) == nil)
        // The user opens the app: tracking is back, and so is the notice.
        now += .seconds(300)
        _ = machine.handle(.enteredForeground, at: now)
        #expect(Self.scheduled(machine.handle(.locationFix(Self.fix(at: now), source: .oneShot), at: now)) != nil)
    }

    @Test func aRelaunchedMachineRemembersANoticeAlreadyShown() throws {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        machine.restoreDeadManNotice(due: Self.start - .seconds(60))
        _ = machine.handle(.launched(.significantChange), at: Self.start)
        #expect(
            Self.scheduled(
                machine.handle(.locationFix(Self.fix(at: Self.start), source: .significantChange), at: Self.start))
                == nil)
        var fresh = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        fresh.restoreDeadManNotice(due: Self.start + .seconds(60))  // still pending: keep moving it
        _ = fresh.handle(.launched(.significantChange), at: Self.start)
        #expect(
            Self.scheduled(
                fresh.handle(.locationFix(Self.fix(at: Self.start), source: .significantChange), at: Self.start)) != nil
        )
    }
}
