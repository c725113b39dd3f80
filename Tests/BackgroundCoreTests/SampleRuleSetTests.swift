import BackgroundCore
import Testing

/// The one sample rule set: each range's edges are allowed, the value just past them is refused
/// with that rule's code, and hostile values are judged, never trapped on.
@Suite struct SampleRuleSetTests {
    static let now = Instant(milliseconds: 1_732_240_000_000)
    /// The record and the `seq` the rules judge with it.
    @dynamicMemberLookup
    struct Judged {
        var values: SampleValues
        var seq: Int64?

        subscript<Value>(dynamicMember keyPath: WritableKeyPath<SampleValues, Value>) -> Value {
            get { values[keyPath: keyPath] }
            set { values[keyPath: keyPath] = newValue }
        }
    }

    static let valid = Judged(
        values: SampleValues(
            time: now, latitude: 31.23, longitude: 121.47, accuracy: 10, verticalAccuracy: 3, altitude: 4,
            speed: 1.2, course: 90, battery: 0.8),
        seq: 1)

    static func verdict(_ change: (inout Judged) -> Void) -> SampleRuleViolation.Code? {
        var judged = valid
        change(&judged)
        do throws(SampleRuleViolation) {
            try SampleRuleSet.check(judged.values, seq: judged.seq, receivedAt: now)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func edgesAreAllowed() {
        let day = SampleRuleSet.futureTolerance
        let edges: [(inout Judged) -> Void] = [
            { $0.latitude = -90 }, { $0.latitude = 90 }, { $0.longitude = -180 }, { $0.longitude = 180 },
            { $0.time = SampleRuleSet.earliest }, { $0.time = Self.now + day }, { $0.accuracy = 0 },
            { $0.accuracy = 1_000_000 }, { $0.altitude = -12_000 }, { $0.altitude = 100_000 }, { $0.speed = 0 },
            { $0.speed = 2_000 }, { $0.course = 0 }, { $0.course = 360 }, { $0.battery = 0 }, { $0.battery = 1 },
            { $0.seq = 1 }, { $0.seq = nil }, { $0.accuracy = nil }, { $0.verticalAccuracy = 0 },
            { $0.verticalAccuracy = 1_000_000 }, { $0.verticalAccuracy = nil },
        ]
        for (index, edge) in edges.enumerated() {
            #expect(Self.verdict(edge) == nil, "edge \(index)")
        }
    }

    @Test func justPastTheEdgesIsRefusedByThatRule() {
        let cases: [((inout Judged) -> Void, SampleRuleViolation.Code)] = [
            ({ $0.latitude = 90.000_001 }, .latitude), ({ $0.latitude = .nan }, .latitude),
            ({ $0.longitude = -180.000_001 }, .longitude), ({ $0.longitude = .infinity }, .longitude),
            (
                {
                    $0.latitude = 0; $0.longitude = 0
                }, .nullIsland
            ),
            ({ $0.time = SampleRuleSet.earliest - .milliseconds(1) }, .tooEarly),
            ({ $0.time = Self.now + SampleRuleSet.futureTolerance + .milliseconds(1) }, .tooFarAhead),
            ({ $0.accuracy = -0.001 }, .accuracy), ({ $0.accuracy = 1_000_000.1 }, .accuracy),
            ({ $0.accuracy = .nan }, .accuracy), ({ $0.altitude = 100_000.1 }, .altitude),
            ({ $0.altitude = -.infinity }, .altitude), ({ $0.speed = -1 }, .speed), ({ $0.speed = 2_000.1 }, .speed),
            ({ $0.course = 360.1 }, .course), ({ $0.battery = 1.01 }, .battery), ({ $0.seq = 0 }, .seq),
            ({ $0.seq = .min }, .seq), ({ $0.verticalAccuracy = -0.001 }, .verticalAccuracy),
            ({ $0.verticalAccuracy = 1_000_000.1 }, .verticalAccuracy),
            ({ $0.verticalAccuracy = .nan }, .verticalAccuracy),
        ]
        for (index, (change, code)) in cases.enumerated() {
            #expect(Self.verdict(change) == code, "case \(index)")
        }
    }

    /// `now + futureTolerance` overflowed for a clock near Int64's end and trapped.
    @Test func extremeTimesAndClocksAreJudgedNotTrappedOn() throws {
        let end = Instant(milliseconds: .max)
        let start = Instant(milliseconds: .min)
        #expect(throws: Never.self) { try SampleRuleSet.checkTime(end, receivedAt: end) }
        #expect(throws: SampleRuleViolation.self) { try SampleRuleSet.checkTime(end, receivedAt: start) }
        #expect(throws: SampleRuleViolation.self) { try SampleRuleSet.checkTime(start, receivedAt: end) }
        #expect(Self.verdict { $0.time = end } == .tooFarAhead)
    }

    @Test func messagesNameTheFieldTheValueAndTheRange() {
        #expect(throws: SampleRuleViolation(.latitude, field: "lat", "latitude 91.2 is outside -90…90")) {
            try SampleRuleSet.checkPosition(latitude: 91.2, longitude: 10)
        }
    }
}
