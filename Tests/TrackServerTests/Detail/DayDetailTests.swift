import BackgroundCore
import LocationLog
import Testing
import TrackGeometry
import TrackServer

@Suite("Day detail: clean-up flags and levels of one device-day (issue 25 items 1 and 5)")
struct DayDetailTests {
    static let gap = Duration.seconds(600)

    static func point(_ row: Int64, minute: Double, lat: Double = 48.85, lon: Double = 2.35, acc: Double? = 10)
        -> DetailInput
    {
        DetailInput(
            row: row,
            point: SampleValues(
                time: Instant(milliseconds: Int64(minute * 60_000)), latitude: lat, longitude: lon, accuracy: acc))
    }

    /// A walk east, one point every two minutes (about 1.4 m/s).
    static func walk(_ count: Int, from row: Int64 = 0, startMinute: Double = 0) -> [DetailInput] {
        (0..<count).map {
            point(row + Int64($0), minute: startMinute + Double($0) * 2, lon: 2.35 + Double($0) * 0.0023)
        }
    }

    func flags(_ points: [DetailInput], rules: CleanupRules = CleanupRules(), before: DetailInput? = nil)
        -> [SampleFlag]
    {
        DayDetail.compute(points, before: before, after: nil, rules: rules, maximumGap: Self.gap).map(\.flag)
    }

    @Test func nullIslandAndInaccuratePointsAreFlaggedOthersAreNot() {
        var points = Self.walk(6)
        points[1].latitude = 0
        points[1].longitude = 0
        points[2].accuracy = 10_001
        points[3].accuracy = .nan
        points[4].accuracy = nil  // unknown accuracy is not "worse than"
        points[5].latitude = 0  // on the equator, not at (0, 0)
        points[5].longitude = 2.36
        #expect(
            flags(points, rules: CleanupRules(maximumSpeed: nil)) == [
                .none, .nullIsland, .inaccurate, .inaccurate, .none, .none,
            ])
        #expect(flags(points, rules: .none) == Array(repeating: .none, count: 6))
    }

    @Test func aLoneJumpAwayAndBackIsFlaggedAFlightIsNot() {
        var points = Self.walk(5)
        points[2].latitude = 40.0  // 1,000 km away for one sample, two minutes apart
        #expect(flags(points) == [.none, .none, .speedJump, .none, .none])
        // Faster than the limit the whole way (about 370 m/s), every point far from the last: a
        // real journey, not an outlier.
        let flight = (0..<5).map { Self.point(Int64($0), minute: Double($0) * 2, lon: 2 + Double($0) * 0.6) }
        #expect(flags(flight) == Array(repeating: .none, count: 5))
        // A jump that stays (the phone really moved, or the old position was wrong): not a lone outlier.
        var moved = Self.walk(5)
        for index in 2..<5 { moved[index].latitude = 40 }
        #expect(flags(moved) == Array(repeating: .none, count: 5))
        // The rule is tunable: turned off, the jump is drawn.
        #expect(flags(points, rules: CleanupRules(maximumSpeed: nil))[2] == .none)
    }

    @Test func theJumpRuleLooksAcrossTheDayEdgeAndIgnoresNullIslandNeighbours() {
        var points = Self.walk(3, startMinute: 2)
        points[0].latitude = 40
        let before = Self.point(-1, minute: 0)
        #expect(flags(points, before: before) == [.speedJump, .none, .none])
        // A (0,0) neighbour before the day is no reference.
        #expect(flags(points, before: Self.point(-1, minute: 0, lat: 0, lon: 0)) == [.none, .none, .none])
        // Several equal timestamps (speed over at least one second): no division by zero.
        let same = (0..<4).map { Self.point(Int64($0), minute: 1) }
        #expect(flags(same) == Array(repeating: .none, count: 4))
    }

    @Test func gapEndsAreDrawnAtEveryZoomAndStartSegments() {
        let morning = Self.walk(30)
        let evening = Self.walk(30, from: 100, startMinute: 600)
        let outputs = DayDetail.compute(
            morning + evening, before: nil, after: nil, rules: CleanupRules(), maximumGap: Self.gap)
        let byRow = Dictionary(uniqueKeysWithValues: outputs.map { ($0.row, $0) })
        for row: Int64 in [0, 29, 100, 129] { #expect(byRow[row]?.level == 0, "row \(row)") }
        #expect(outputs.filter(\.startsSegment).map(\.row) == [0, 100])
        // A point before the day within the gap threshold continues its line.
        let continued = DayDetail.compute(
            morning, before: Self.point(-1, minute: -3), after: nil, rules: CleanupRules(), maximumGap: Self.gap)
        #expect(continued.filter(\.startsSegment).isEmpty)
    }

    @Test func flaggedPointsAreLeftOutOfLevelsAndSegments() {
        var points = Self.walk(10)
        points[0].latitude = 0
        points[0].longitude = 0
        points[9].accuracy = 50_000
        let outputs = DayDetail.compute(points, before: nil, after: nil, rules: CleanupRules(), maximumGap: Self.gap)
        #expect(outputs[0].level == DayDetail.excludedLevel && outputs[9].level == DayDetail.excludedLevel)
        #expect(outputs[1].level == 0 && outputs[8].level == 0)  // the ends of what is drawn
        #expect(outputs.filter(\.startsSegment).map(\.row) == [1])
        #expect(outputs.allSatisfy { $0.level <= DayDetail.excludedLevel })
    }

    /// Reversible: the same day worked out again with the rules off gives back every point.
    @Test func turningTheRulesOffUnflagsEverything() {
        var points = Self.walk(8)
        points[3].latitude = 0
        points[3].longitude = 0
        points[5].accuracy = 99_999
        let flagged = DayDetail.compute(points, before: nil, after: nil, rules: CleanupRules(), maximumGap: Self.gap)
        #expect(flagged.filter { $0.flag != .none }.count == 2)
        let off = DayDetail.compute(points, before: nil, after: nil, rules: .none, maximumGap: Self.gap)
        #expect(off.allSatisfy { $0.flag == .none && $0.level <= DetailLevels.all })
    }

    @Test func daysAreFlooredAlsoBeforeTheEpoch() {
        #expect(DayDetail.day(0) == 0)
        #expect(DayDetail.day(86_399_999) == 0)
        #expect(DayDetail.day(86_400_000) == 1)
        #expect(DayDetail.day(-1) == -1)
        #expect(DayDetail.day(-86_400_000) == -1)
        #expect(DayDetail.day(-86_400_001) == -2)
        #expect(DayDetail.pendingDays(after: [5, 3]) == [3, 4, 5, 6])
    }

    @Test(arguments: [
        ("", false), ("nan", false), ("-1", false), ("0", false), ("1e400", false), ("inf", false),
        ("12345678901234567", false), ("300", true), ("2.5", true), ("off", true), ("OFF", false), (" 300", false),
    ])
    func ruleLimitsOnTheCommandLine(text: String, valid: Bool) throws {
        let parsed = Result { () throws(CleanupRuleError) -> Double? in
            try CleanupRules.limit(text, option: "flag-max-speed", range: 1...1e6)
        }
        switch parsed {
        case .success: #expect(valid)
        case .failure(let error):
            #expect(!valid)
            #expect(error.description.contains("--flag-max-speed") && error.description.contains("'off'"))
        }
        #expect(throws: CleanupRuleError.self) { try CleanupRules.switchValue("yes", option: "flag-null-island") }
        #expect((try? CleanupRules.switchValue("off", option: "flag-null-island")) == false)
    }

    @Test func theFingerprintChangesWithEveryRuleAndTheGap() {
        let base = CleanupRules().fingerprint(maximumGap: Self.gap)
        #expect(CleanupRules(nullIsland: false).fingerprint(maximumGap: Self.gap) != base)
        #expect(CleanupRules(maximumAccuracy: 500).fingerprint(maximumGap: Self.gap) != base)
        #expect(CleanupRules(maximumSpeed: nil).fingerprint(maximumGap: Self.gap) != base)
        #expect(CleanupRules().fingerprint(maximumGap: .seconds(601)) != base)
        #expect(CleanupRules().fingerprint(maximumGap: Self.gap) == base)
    }
}
