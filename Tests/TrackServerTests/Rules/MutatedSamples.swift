import BackgroundCore
import Foundation
import LocationLog

/// Seeded wire samples around a valid one, each with one or two fields set to a boundary value,
/// just past it, a huge or hostile value, or (where the Swift type allows) NaN or an infinity:
/// the input of the cross-validator.
struct MutatedSamples {
    var random: SeededRandom
    let now: Instant
    private var counter: UInt64 = 0

    init(seed: UInt64, now: Instant) {
        self.random = SeededRandom(seed: seed)
        self.now = now
    }

    /// JSON cannot carry NaN or an infinity; such samples stay off the HTTP path.
    static func isSendable(_ wire: WireSample) -> Bool {
        [wire.latitude, wire.longitude, wire.accuracy, wire.altitude, wire.speed, wire.course, wire.battery].allSatisfy
        {
            $0?.isFinite ?? true
        }
    }

    mutating func next() -> WireSample {
        counter += 1
        var wire = WireSample(
            id: String(format: "6f1c0000-0000-4000-8000-%012llx", counter), seq: Int64(counter),
            values: SampleValues(
                time: Instant(milliseconds: (now - .seconds(Int64(random.next() % 3600))).milliseconds),
                latitude: random.uniform(-80...80), longitude: random.uniform(-170...170),
                accuracy: random.uniform(3...60), altitude: random.uniform(-50...3000), speed: random.uniform(0...40),
                course: random.uniform(0...359), battery: random.uniform(0.05...1), charging: random.next() % 2 == 0),
            trigger: SampleTrigger.allCases[Int(random.next() % UInt64(SampleTrigger.allCases.count))].rawValue,
            state: random.next() % 2 == 0 ? "foreground" : "background")
        // About one sample in six stays valid; the others get one or two mutations.
        let mutations = [0, 1, 1, 1, 2, 2][Int(random.next() % 6)]
        for _ in 0..<mutations { mutate(&wire) }
        return wire
    }

    private mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }

    private mutating func mutate(_ wire: inout WireSample) {
        let hostile: [Double] = [.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        let day = SampleRuleSet.futureTolerance
        switch random.next() % 13 {
        case 0:
            wire.latitude = pick(
                [-90, 90, -90.000_001, 90.000_001, 180, -1e9, 0, -0.0] + (random.next() % 4 == 0 ? hostile : []))
        case 1:
            wire.longitude = pick(
                [-180, 180, -180.000_001, 180.000_001, 360, 1e12, 0] + (random.next() % 4 == 0 ? hostile : []))
        case 2:
            (wire.latitude, wire.longitude) = pick([
                (0, 0), (-0.0, 0), (0, -0.0), (1e-300, 0), (0, .leastNonzeroMagnitude),
            ])
        case 3:
            let earliest = SampleRuleSet.earliest.milliseconds
            wire.time.milliseconds = pick([
                earliest, earliest - 1, 0, -1, -62_135_596_800_000, Int64.min, Int64.max,
                (now + day).milliseconds, (now + day).milliseconds + 1, (now + day * 400).milliseconds,
                now.milliseconds,
            ])
        case 4:
            wire.accuracy = pick(
                [nil, 0, -0.0, -1, 0.001, 1_000_000, 1_000_000.5, 1e300, -1e-9]
                    + (random.next() % 4 == 0 ? hostile : []))
        case 5:
            wire.altitude = pick(
                [nil, -12_000, -12_000.5, 100_000, 100_000.1, -1e300, 8_848] + (random.next() % 4 == 0 ? hostile : []))
        case 6:
            wire.speed = pick([nil, 0, -1, -0.5, 2_000, 2_000.01, 1e10] + (random.next() % 4 == 0 ? hostile : []))
        case 7:
            wire.course = pick([nil, 0, 360, 360.01, -1, -0.001, 720] + (random.next() % 4 == 0 ? hostile : []))
        case 8:
            wire.battery = pick([nil, 0, 1, 1.000_1, -1, 100, -0.01] + (random.next() % 4 == 0 ? hostile : []))
        case 9:
            wire.seq = pick([1, 0, -1, Int64.max, Int64.min, 2])
        case 10:
            // Unique, 1…64 characters: a repeated or unusable id refuses the whole batch, not a sample.
            wire.id = pick([
                "x\(counter)", "not-a-uuid-\(counter)", wire.id.uppercased(), String(wire.id.dropFirst()),
                wire.id + "0",
            ])
        case 11:
            wire.trigger = pick([nil, "bogus", "TIMER", "", "visit"])
        default:
            wire.state = pick([nil, "sideways", "Foreground", "", "background"])
        }
    }
}
