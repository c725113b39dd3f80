import BackgroundCore
import IOSSimulator
import LocationLog

/// A hosted app whose every answer is scripted: it drives the simulator's API directly, so the
/// runtime contract's tests do not depend on the iOS shell obeying the rules.
final class ScriptedApp: HostedApp, @unchecked Sendable {
    // The simulator calls a hosted app on one thread only (`HostedApp`'s contract).
    typealias Script = @Sendable (AppCallback, HostedSystemState) -> HostedResult
    private let script: Script
    private let onExpiry: @Sendable (String) -> HostedResult
    private let onLocationFailure: @Sendable (LocationFailure) -> HostedResult

    init(
        _ script: @escaping Script, onExpiry: @escaping @Sendable (String) -> HostedResult = { _ in HostedResult() },
        onLocationFailure: @escaping @Sendable (LocationFailure) -> HostedResult = { _ in HostedResult() }
    ) {
        self.script = script
        self.onExpiry = onExpiry
        self.onLocationFailure = onLocationFailure
    }

    func handle(_ event: AppCallback, system: HostedSystemState) -> HostedResult { script(event, system) }
    func uploadFinished(_ description: String, answer: HostedAnswer, system: HostedSystemState) -> HostedResult {
        HostedResult()
    }
    func credentialsChanged(system: HostedSystemState) -> HostedResult { HostedResult() }
    func backgroundTaskExpiring(_ identifier: String, system: HostedSystemState) -> HostedResult {
        onExpiry(identifier)
    }
    func locationFailed(_ failure: LocationFailure, system: HostedSystemState) -> HostedResult {
        onLocationFailure(failure)
    }
    var ledgerOpenTasks: [BackgroundTaskToken] { [] }
    func processTerminated() {}
    func simulationEnded() {}
}

struct ScriptedAppFactory: HostedAppFactory {
    let make: @Sendable () -> ScriptedApp
    var name: String { "scripted" }
    func makeApp(for configuration: SimulationConfiguration, store: LocationStore) -> any HostedApp { make() }
}

extension SimulationConfiguration {
    /// A quiet day (no pushes, no memory kills) for one scripted app.
    static func scripted(
        _ app: @escaping @Sendable () -> ScriptedApp, strategy: StrategyName = .adaptive, ios: Int = 17,
        hours: Double = 3, plist: InfoPlist? = nil, scenario: Scenario = .commute()
    ) -> SimulationConfiguration {
        var scenario = scenario
        scenario.silentPushesPerHour = 0
        var configuration = SimulationConfiguration(
            strategy: strategy, ios: ios, app: ScriptedAppFactory(make: app), scenario: scenario, hours: hours,
            memoryKillFactor: 0, recordsTimeline: true)
        configuration.plist = plist
        return configuration
    }

    func run() -> SimulationReport {
        var simulation = Simulation(self)
        return simulation.run()
    }
}

extension InfoPlist {
    /// `plist` with `mode` taken out of `UIBackgroundModes`.
    func without(_ mode: String) -> InfoPlist {
        var copy = self
        copy.backgroundModes.remove(mode)
        copy.origin += " without \(mode)"
        return copy
    }
}
