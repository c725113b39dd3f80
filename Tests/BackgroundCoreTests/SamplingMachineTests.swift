import BackgroundCore
import Testing

@Suite struct SamplingMachineTests {
    let start = Instant(milliseconds: 1_699_999_920_000)  // a multiple of 120 s

    func fix(at instant: Instant, lat: Double = 31.23, lon: Double = 121.47, acc: Double = 10) -> LocationFix {
        LocationFix(timestamp: instant, latitude: lat, longitude: lon, horizontalAccuracy: acc)
    }

    @Test func acceptsOneFixPerSlot() {
        var machine = SamplingMachine()
        _ = machine.handle(.start, at: start)
        let first = machine.handle(
            .fix(fix(at: start + .seconds(5)), trigger: .timer, state: .background), at: start + .seconds(5))
        let second = machine.handle(
            .fix(fix(at: start + .seconds(60)), trigger: .timer, state: .background), at: start + .seconds(60))
        let third = machine.handle(
            .fix(fix(at: start + .seconds(121)), trigger: .timer, state: .background), at: start + .seconds(121))
        #expect(first.count == 1)
        #expect(second.isEmpty)
        #expect(machine.surplusFixes == 1)
        guard case .accept(let accepted) = third.first else {
            Issue.record("expected the fix in the second slot to be accepted, got \(third)")
            return
        }
        #expect(accepted.slot == machine.slot(containing: start) + 1)
        #expect(machine.nextSlot(after: start + .seconds(121)) == start + .seconds(240))
    }

    /// A departure fix is a sample beyond its slot's own, once per slot; in a slot without a
    /// sample it is that slot's sample. Either way its trigger is `motion`.
    @Test func aDepartureFixIsOneSampleBeyondTheSlot() {
        var machine = SamplingMachine()
        _ = machine.handle(.start, at: start)
        let at = { (seconds: Int64) in self.start + .seconds(seconds) }
        let still = machine.handle(.fix(fix(at: at(2)), trigger: .timer, state: .background), at: at(2))
        #expect(machine.acceptsDeparture(at: at(60)))
        let departure = machine.handle(.departure(fix(at: at(60)), state: .background), at: at(61))
        let again = machine.handle(.departure(fix(at: at(90)), state: .background), at: at(91))
        let slotFix = machine.handle(.fix(fix(at: at(100)), trigger: .timer, state: .background), at: at(100))
        #expect(still.count == 1)
        #expect(
            departure == [
                .accept(
                    AcceptedFix(
                        fix(at: at(60)), trigger: .motion, state: .background, slot: machine.slot(containing: at(60))))
            ])
        #expect(!machine.acceptsDeparture(at: at(90)))
        #expect(again.isEmpty && slotFix.isEmpty)
        #expect(machine.surplusFixes == 2)
        // The next slot: the departure comes first and is the slot's sample.
        let first = machine.handle(.departure(fix(at: at(130)), state: .foreground), at: at(130))
        let timer = machine.handle(.fix(fix(at: at(135)), trigger: .timer, state: .background), at: at(135))
        #expect(first.count == 1 && timer.isEmpty)
        #expect(!machine.needsFix(at: at(140)))
        // A bad departure fix is rejected like any other.
        let bad = machine.handle(.departure(fix(at: at(250), acc: 900), state: .background), at: at(250))
        #expect(bad.count == 1 && bad.allSatisfy { if case .reject = $0 { true } else { false } })
    }

    @Test(arguments: [
        (0.0, 0.0, 10.0, "0,0"),
        (91.2, 10.0, 10.0, "latitude 91.2 is outside -90…90"),
        (10.0, -180.5, 10.0, "longitude -180.5 is outside -180…180"),
        (Double.nan, 10.0, 10.0, "latitude is not a finite number"),
        (10.0, 10.0, 500.0, "worse than the 200.0 m limit"),
        (10.0, 10.0, -1.0, "not a positive radius"),
    ])
    func rejectsBadFixesWithAReason(lat: Double, lon: Double, acc: Double, message: String) {
        var machine = SamplingMachine()
        let actions = machine.handle(
            .fix(fix(at: start, lat: lat, lon: lon, acc: acc), trigger: .timer, state: .foreground), at: start)
        guard case .reject(_, let reason) = actions.first else {
            Issue.record("expected a rejection, got \(actions)")
            return
        }
        #expect(reason.description.contains(message))
    }

    @Test func rejectsStaleAndFutureFixes() {
        var machine = SamplingMachine(configuration: .init(interval: .seconds(120)))
        let stale = machine.handle(.fix(fix(at: start), trigger: .timer, state: .background), at: start + .seconds(241))
        #expect(stale == [.reject(fix(at: start), .stale(age: .seconds(241), limit: .seconds(240)))])
        let future = machine.handle(
            .fix(fix(at: start + .seconds(600)), trigger: .timer, state: .background), at: start)
        #expect(future == [.reject(fix(at: start + .seconds(600)), .inTheFuture(ahead: .seconds(600)))])
    }

    @Test func validatesTheInterval() {
        #expect(throws: ConfigurationError.self) {
            try SamplingMachine.Configuration(interval: .seconds(10)).validate()
        }
        #expect(throws: ConfigurationError.self) {
            try SamplingMachine.Configuration(interval: .seconds(7200)).validate()
        }
        #expect(throws: Never.self) { try SamplingMachine.Configuration(interval: .seconds(180)).validate() }
    }

    @Test func aClockSetBackIsSampledAtOnceNotCountedAsSurplus() {
        var machine = SamplingMachine()
        _ = machine.handle(.start, at: start)
        let later = start + .seconds(3600)
        #expect(machine.handle(.fix(fix(at: later), trigger: .timer, state: .background), at: later).count == 1)
        // The user sets the clock back an hour: the next fix is an hour "earlier" than the last sample.
        #expect(machine.needsFix(at: start + .seconds(10)))
        let back = machine.handle(
            .fix(fix(at: start + .seconds(10)), trigger: .timer, state: .background), at: start + .seconds(10))
        #expect(back.count == 1)
        #expect(machine.surplusFixes == 0)
    }

    @Test func aLateFixFillsAnEmptyEarlierSlotButNeverAFilledOne() {
        var machine = SamplingMachine()
        _ = machine.handle(.start, at: start)
        let slot1 = start + .seconds(130)
        _ = machine.handle(.fix(fix(at: slot1), trigger: .timer, state: .background), at: slot1)
        let late = machine.handle(.fix(fix(at: start + .seconds(5)), trigger: .timer, state: .background), at: slot1)
        #expect(late.count == 1, "slot 0 had no sample yet")
        let again = machine.handle(.fix(fix(at: start + .seconds(50)), trigger: .timer, state: .background), at: slot1)
        #expect(again.isEmpty, "slot 0 is filled now")
    }
}
