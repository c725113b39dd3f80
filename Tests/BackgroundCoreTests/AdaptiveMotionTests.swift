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
}
