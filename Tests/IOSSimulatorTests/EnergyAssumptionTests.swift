import BackgroundCore
import IOSShellHost
import Testing

@testable import IOSSimulator

/// Issue 21 item 5: every energy headline says what share of it rests on parameters the policy
/// table marks as assumptions, and coverage counts approximate samples apart.
@MainActor @Suite struct EnergyAssumptionTests {
    let start = Instant(seconds: 1_750_000_000)

    @Test func aBurstCountsAsAssumedWhenAnyOfItsParametersIs() {
        var meter = EnergyMeter(start: start, assumptions: [.gpsTimeToFix])
        meter.add(.gps, milliwatts: 280, seconds: 5, restingOn: [.gpsPower, .gpsTimeToFix])
        #expect(meter.assumedShare == 1)
        meter.add(.radio, milliwatts: 1060, seconds: 10.1, restingOn: [.lteTailPower, .lteTailTime])
        let assumed = 280.0 * 5
        #expect(abs(meter.assumedShare - assumed / (assumed + 1060 * 10.1)) < 1e-12)
        // A continuous draw rests on its power alone: documented or measured power is not assumed.
        meter.accrue(until: start + .seconds(60), draws: [(.gps, 280)])
        #expect(meter.assumedShare < assumed / (assumed + 1060 * 10.1))
    }

    @Test func nothingSpentIsNoShare() {
        #expect(EnergyMeter(start: start, assumptions: [.cpuPower]).assumedShare == 0)
    }

    /// continuous-location's energy is continuous GPS (280 mW, measured: folklore status), so
    /// little of it is assumed; significant-change spends on the SLC, visit and CPU powers the
    /// table marks as assumptions.
    @Test func theShareFollowsThePolicyTable() {
        // Both made before either runs: each shell's calls reach its own system (the shell
        // installs it for every call, not only when the simulation is made).
        var continuous = Simulation(
            SimulationConfiguration(strategy: .continuousLocation, ios: 17, app: IOSShell(), hours: 6))
        var significant = Simulation(
            SimulationConfiguration(strategy: .significantChange, ios: 17, app: IOSShell(), hours: 6))
        let gps = continuous.run()
        let slc = significant.run()
        var alone = Simulation(
            SimulationConfiguration(strategy: .continuousLocation, ios: 17, app: IOSShell(), hours: 6))
        #expect(alone.run() == gps, "the same day as when made and run alone")
        #expect(gps.energyAssumedShare < 0.1, "\(gps.energyAssumedShare)")
        #expect(slc.energyAssumedShare > 0.3, "\(slc.energyAssumedShare)")
        #expect(PolicyTable.parameter(.gpsPower, ios: 17)?.status != .assumption)
        #expect(PolicyTable.parameter(.significantChangePower, ios: 17)?.status == .assumption)
    }
}
