import BackgroundCore
import IOSShellHost
import Testing

@testable import IOSSimulator

/// Issue 8, items 9-10: the path error and the energy floor every report now carries.
@MainActor @Suite struct ReportMetricsTests {
    func run(_ strategy: StrategyName, scenario: Scenario = .commute(), hours: Double = 24) -> SimulationReport {
        var simulation = Simulation(
            SimulationConfiguration(
                strategy: strategy, ios: 17, app: IOSShell(), scenario: scenario, hours: hours, seed: 1))
        return simulation.run()
    }

    @Test func aStrategyThatSamplesEverySlotWithGPSFollowsTheRoute() {
        let report = run(.continuousLocation)
        #expect(report.pathErrorMeanM >= 0 && report.pathErrorMeanM < 20, "\(report.pathErrorMeanM)")
        #expect(report.pathWithin100m >= 0.99)
    }

    /// A day at home with few samples is not a failure: coverage is low, the track is still right.
    @Test func aStationaryDayWithFewSamplesStillHasASmallPathError() {
        let report = run(.significantChange, scenario: .homeDay())
        #expect(report.coverage < 0.5)
        #expect(report.pathErrorMeanM >= 0 && report.pathErrorMeanM < 100, "\(report.pathErrorMeanM)")
    }

    /// And coverage alone can flatter: the failing strategies lose whole journeys, which the path
    /// error shows as hundreds of metres where coverage only says "low".
    @Test func losingTheAppWhileMovingShowsInThePathError() {
        var scenario = Scenario.commute()
        scenario.happenings.append((at: 7.5 * 3600, .forceQuit))
        let lost = run(.finiteTask, scenario: scenario)
        let kept = run(.adaptive, scenario: scenario)
        #expect(lost.pathErrorMaxM > 1_000, "\(lost.pathErrorMaxM)")
        #expect(kept.pathErrorMeanM < lost.pathErrorMeanM)
    }

    @Test func theFloorIsOneFixPerSlotAndOneUploadBurstPerInterval() throws {
        let report = run(.adaptive)
        let profile = try #require(IOSProfile(major: 17))
        let fixes = 720 * profile[.gpsPower] * profile[.gpsTimeToFix] / 3600
        let burst =
            (profile[.ltePromotionPower] * profile[.ltePromotionTime] + profile[.lteTailPower] * profile[.lteTailTime])
            / 3600
        #expect(abs(report.energyFloorMwh - (fixes + 48 * burst)) < 0.01)
        // Every strategy that tracks the whole day spends at least the floor.
        for strategy in [StrategyName.continuousLocation, .activitySession, .adaptive] {
            let tracked = run(strategy)
            #expect(tracked.energyMwh >= tracked.energyFloorMwh, "\(strategy.rawValue)")
        }
        #expect(run(.continuousLocation).energyMwh / report.energyFloorMwh > 10)
    }
}

@MainActor @Suite struct SeedSummaryTests {
    @Test func mediansAndMinimumsPerRow() {
        let reports = (1...3).map { seed -> SimulationReport in
            var simulation = Simulation(
                SimulationConfiguration(
                    strategy: .significantChange, ios: 17, app: IOSShell(), hours: 6, seed: UInt64(seed)))
            return simulation.run()
        }
        let summary = SeedSummary.summarize(reports)
        #expect(summary.count == 1)
        let coverages = reports.map(\.coverage).sorted()
        #expect(summary.first?.seeds == 3)
        #expect(summary.first?.coverageMedian == coverages[1].rounded(toPlaces: 4))
        #expect(summary.first?.coverageMin == coverages[0].rounded(toPlaces: 4))
    }
}
