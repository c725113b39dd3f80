import Testing

@testable import BackgroundCore

/// `adaptive` and the motion coprocessor (issue 24 item 2): a moving activity sends the next
/// slot to GPS; without activities the samples alone decide, exactly as before.
@Suite struct AdaptiveMotionTests {
    let start = Instant(milliseconds: 1_732_492_800_000)

    /// An adaptive machine whose last two samples were at the same place: it believes the user
    /// stays put, so its next slot would take a Wi-Fi-accuracy fix.
    func stationaryMachine(motion: [(at: Int64, MotionActivity)] = []) -> KeepAliveMachine {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: start)
        var events: [(at: Int64, KeepAliveEvent)] = [
            (5, .locationFix(fix(at: 5), source: .oneShot)),
            (120, .timerFired(KeepAliveMachine.sampleTimer)),
            (125, .locationFix(fix(at: 125), source: .oneShot)),
        ]
        events += motion.map { ($0.at, .motionActivity($0.1)) }
        for (at, event) in events.sorted(by: { $0.at < $1.at }) {
            _ = machine.handle(event, at: start + .seconds(at))
        }
        return machine
    }

    func fix(at seconds: Int64) -> LocationFix {
        LocationFix(timestamp: start + .seconds(seconds), latitude: 31.2, longitude: 121.4, horizontalAccuracy: 8)
    }

    /// The accuracy the slot at 240 s asks for.
    func nextSlotAccuracy(_ machine: inout KeepAliveMachine) -> LocationAccuracy? {
        machine.handle(.timerFired(KeepAliveMachine.sampleTimer), at: start + .seconds(240)).compactMap {
            if case .requestFix(let accuracy) = $0 { accuracy } else { nil }
        }.first
    }

    @Test func withoutMotionTheSamplesDecideAsBefore() {
        var machine = stationaryMachine()
        #expect(nextSlotAccuracy(&machine) == .hundredMeters)
    }

    @Test(arguments: [MotionActivity.Kind.walking, .running, .cycling, .automotive])
    func aMovingActivityMakesTheNextSlotAGPSFix(kind: MotionActivity.Kind) {
        var machine = stationaryMachine(motion: [(200, MotionActivity(kind, confidence: .high))])
        #expect(nextSlotAccuracy(&machine) == .best)
        var medium = stationaryMachine(motion: [(200, MotionActivity(kind, confidence: .medium))])
        #expect(nextSlotAccuracy(&medium) == .best)
    }

    @Test func aLowConfidenceGuessAStationaryOrUnknownActivityLeaveItToTheSamples() {
        for activity in [
            MotionActivity(.walking, confidence: .low), MotionActivity(.stationary, confidence: .high),
            MotionActivity(.unknown, confidence: .high),
        ] {
            var machine = stationaryMachine(motion: [(200, activity)])
            #expect(nextSlotAccuracy(&machine) == .hundredMeters, "\(activity)")
        }
    }

    @Test func whileTheCoprocessorSaysMovingCloseSamplesDoNotMeanStationary() {
        // Walking from 100 s: the sample at 125 s is within 100 m of the one before, slowly.
        var walking = stationaryMachine(motion: [(100, MotionActivity(.walking, confidence: .high))])
        #expect(nextSlotAccuracy(&walking) == .best)
        // Stationary again before that sample: the samples decide once more.
        var stopped = stationaryMachine(motion: [
            (100, MotionActivity(.walking, confidence: .high)), (110, MotionActivity(.stationary, confidence: .high)),
        ])
        #expect(nextSlotAccuracy(&stopped) == .hundredMeters)
    }

    @Test func adaptiveStartsMotionUpdatesWithItsServicesAndStopStopsThem() {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        #expect(machine.handle(.launched(.user), at: start).contains(.startMotionUpdates))
        #expect(machine.handle(.stop, at: start + .seconds(1)).contains(.stopMotionUpdates))
        // The other strategies never ask for motion.
        for name in StrategyName.allCases where name != .adaptive {
            var other = KeepAliveMachine(strategy: name, environment: .init(iosMajor: 17))
            var effects = other.handle(.launched(.user), at: start)
            effects += other.handle(.enteredBackground, at: start + .seconds(60))
            effects += other.handle(
                .motionActivity(MotionActivity(.walking, confidence: .high)), at: start + .seconds(61))
            #expect(!effects.contains(.startMotionUpdates), "\(name)")
        }
    }

    /// The requests a list of actions makes.
    func fixRequests(_ actions: [KeepAliveMachine.Action]) -> [LocationAccuracy] {
        actions.compactMap { if case .requestFix(let accuracy) = $0 { accuracy } else { nil } }
    }

    func recorded(_ actions: [KeepAliveMachine.Action]) -> [AcceptedFix] {
        actions.compactMap { if case .recordSample(let accepted) = $0 { accepted } else { nil } }
    }

    /// The user sets off inside a slot that already took its still (Wi-Fi) fix: the coprocessor's
    /// first moving activity asks for a GPS fix at once, and that fix is a sample beyond the slot
    /// (trigger `motion`), so the trip starts where the person left. Once per setting off.
    @Test func settingOffTakesADepartureFixBeyondTheSlot() throws {
        var machine = stationaryMachine()
        let slot = machine.handle(.timerFired(KeepAliveMachine.sampleTimer), at: start + .seconds(240))
        #expect(fixRequests(slot) == [.hundredMeters])
        #expect(
            recorded(machine.handle(.locationFix(fix(at: 242), source: .oneShot), at: start + .seconds(242))).count == 1
        )
        let setOff = machine.handle(
            .motionActivity(MotionActivity(.cycling, confidence: .high)), at: start + .seconds(300))
        #expect(fixRequests(setOff) == [.best])
        let departure = recorded(
            machine.handle(.locationFix(fix(at: 303), source: .oneShot), at: start + .seconds(303)))
        #expect(departure.map(\.trigger) == [.motion])
        #expect(departure.first?.slot == machine.context.sampling.slot(containing: start + .seconds(242)))
        // Still moving: another moving activity asks for nothing more, and the slot takes no
        // third sample.
        let still = machine.handle(
            .motionActivity(MotionActivity(.cycling, confidence: .medium)), at: start + .seconds(320))
        #expect(fixRequests(still).isEmpty)
        #expect(
            recorded(machine.handle(.locationFix(fix(at: 330), source: .oneShot), at: start + .seconds(330))).isEmpty)
        // Stopped, then off again in the next slot (which took its fix): a departure fix again.
        _ = machine.handle(.motionActivity(MotionActivity(.stationary, confidence: .high)), at: start + .seconds(340))
        _ = machine.handle(.timerFired(KeepAliveMachine.sampleTimer), at: start + .seconds(360))
        _ = machine.handle(.locationFix(fix(at: 362), source: .oneShot), at: start + .seconds(362))
        let again = machine.handle(
            .motionActivity(MotionActivity(.walking, confidence: .high)), at: start + .seconds(400))
        #expect(fixRequests(again) == [.best])
    }

    /// A departure fix that never comes does not label a later slot's fix `motion`: a one-shot fix
    /// taken more than a minute after the request is the slot's own (trigger `timer`).
    @Test func aLateOneShotFixIsTheSlotsOwnNotADeparture() {
        var machine = stationaryMachine()
        let setOff = machine.handle(
            .motionActivity(MotionActivity(.walking, confidence: .high)), at: start + .seconds(200))
        #expect(fixRequests(setOff) == [.best])
        _ = machine.handle(.timerFired(KeepAliveMachine.sampleTimer), at: start + .seconds(300))
        let late = recorded(machine.handle(.locationFix(fix(at: 302), source: .oneShot), at: start + .seconds(302)))
        #expect(late.map(\.trigger) == [.timer])
    }

    /// Only `adaptive` takes departure fixes; the other strategies' samples are unchanged.
    @Test func otherStrategiesTakeNoDepartureFix() {
        for name in StrategyName.allCases where name != .adaptive {
            var other = KeepAliveMachine(strategy: name, environment: .init(iosMajor: 17))
            _ = other.handle(.launched(.user), at: start)
            let effects = other.handle(
                .motionActivity(MotionActivity(.walking, confidence: .high)), at: start + .seconds(61))
            #expect(fixRequests(effects).isEmpty, "\(name)")
        }
    }

    /// A refresh wake's reason labels the wake's own fix only: the slot fixes after it, taken
    /// while the coarse updates keep the app running, are `timer` ones (seed 20's drive home was
    /// labelled `refresh` for as long as the app ran after a refresh wake).
    @Test func aWakesReasonLabelsItsOwnFixOnly() {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.backgroundRefresh), at: start)
        let woken = recorded(machine.handle(.locationFix(fix(at: 3), source: .oneShot), at: start + .seconds(3)))
        _ = machine.handle(.timerFired(KeepAliveMachine.sampleTimer), at: start + .seconds(120))
        let next = recorded(machine.handle(.locationFix(fix(at: 123), source: .oneShot), at: start + .seconds(123)))
        _ = machine.handle(.woke(.silentPush), at: start + .seconds(240))
        let pushed = recorded(machine.handle(.locationFix(fix(at: 242), source: .oneShot), at: start + .seconds(242)))
        #expect(woken.map(\.trigger) == [.refresh])
        #expect(next.map(\.trigger) == [.timer])
        #expect(pushed.map(\.trigger) == [.push])
    }
}
