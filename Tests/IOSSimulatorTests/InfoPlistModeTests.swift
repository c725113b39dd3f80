import BackgroundCore
import IOSShellHost
import IOSSimulator
import Testing

/// The Info.plist decides what iOS lets the app do (docs/ios-policy.md §Modes, §Contract): each rule with and without
/// the key it needs, so removing the rule fails the test.
@MainActor @Suite struct InfoPlistModeTests {
    @Test("allowsBackgroundLocationUpdates without the location mode crashes with iOS's exception text")
    func backgroundLocationWithoutModeCrashes() {
        let start = SystemCall.coreLocation(
            .startUpdatingLocation(.init(accuracy: .best, allowsBackgroundUpdates: true)))
        let app: @Sendable () -> ScriptedApp = {
            ScriptedApp { event, _ in
                if case .launched(.user) = event { return HostedResult(effects: [start]) }
                return HostedResult()
            }
        }
        let without = SimulationConfiguration.scripted(
            app, strategy: .continuousLocation, plist: .minimal(for: .continuousLocation).without("location")
        ).run()
        #expect(without.kills["crash"] == 1)
        #expect(without.crashes.first?.exception == "NSInternalInconsistencyException")
        #expect(
            without.crashes.first?.reason == "Invalid parameter not satisfying: !stayUp || CLClientIsBackgroundable")
        #expect(without.timeline?.contains { $0.contains("CRASH: NSInternalInconsistencyException") } == true)
        #expect(without.samplesCaptured == 0)

        let with = SimulationConfiguration.scripted(app, strategy: .continuousLocation).run()
        #expect(with.crashes.isEmpty)
        #expect(with.kills["crash"] == nil)
    }

    /// The crash itself is the simulator's rule (`backgroundLocationWithoutModeCrashes`, above); the
    /// shell reads the plist first (`AppInfo`) and never sets `allowsBackgroundLocationUpdates`
    /// without the mode, so it does not crash: it is suspended like any app without a mode.
    @Test("the shell: continuous-location without the location mode does not crash but is suspended; with it, it runs")
    func shellWithoutLocationModeIsSuspended() {
        var configuration = SimulationConfiguration(
            strategy: .continuousLocation, ios: 17, app: IOSShell(), hours: 2, memoryKillFactor: 0)
        configuration.plist = InfoPlist.minimal(for: .continuousLocation).without("location")
        var without = Simulation(configuration)
        let report = without.run()
        #expect(report.crashes.isEmpty)
        #expect(report.coverage < 0.1, "\(report.coverage)")
        configuration.plist = nil
        var with = Simulation(configuration)
        let running = with.run()
        #expect(running.crashes.isEmpty)
        #expect(running.coverage > 0.9, "\(running.coverage)")
    }

    @Test("silent pushes wake or launch only an app with remote-notification")
    func silentPushesNeedTheMode() {
        var configuration = SimulationConfiguration(
            strategy: .adaptive, ios: 17, app: IOSShell(), hours: 6, memoryKillFactor: 0)
        configuration.scenario.silentPushesPerHour = 2
        var with = Simulation(configuration)
        #expect(with.run().silentPushesDelivered > 0)
        configuration.plist = InfoPlist.minimal(for: .adaptive).without("remote-notification")
        var without = Simulation(configuration)
        #expect(without.run().silentPushesDelivered == 0)
    }

    @Test("a refresh task is submitted and runs only with the fetch mode")
    func refreshNeedsFetch() {
        var configuration = SimulationConfiguration(
            strategy: .adaptive, ios: 17, app: IOSShell(), hours: 6, memoryKillFactor: 0)
        configuration.recordsTimeline = true
        configuration.scenario.silentPushesPerHour = 0
        let with = configuration.run()
        #expect(with.submitRefusals == 0)
        let ran = "BGTask \(BackgroundTaskIdentifiers.refresh) completed"
        #expect(with.timeline?.contains { $0.contains(ran) } == true)
        configuration.plist = InfoPlist.minimal(for: .adaptive).without("fetch")
        let without = configuration.run()
        #expect(without.submitRefusals > 0)
        #expect(without.timeline?.contains { $0.contains(ran) } == false)
        #expect(without.timeline?.contains { $0.contains("threw BGTaskScheduler.Error.notPermitted") } == true)
    }

    @Test("silent audio keeps a background app running only with the audio mode")
    func audioNeedsTheMode() {
        let app: @Sendable () -> ScriptedApp = {
            ScriptedApp { event, _ in
                if case .enteredBackground = event { return HostedResult(effects: [.avfAudio(.play(duration: nil))]) }
                return HostedResult()
            }
        }
        let with = SimulationConfiguration.scripted(app, strategy: .locationOrAudio, hours: 2).run()
        let without = SimulationConfiguration.scripted(
            app, strategy: .locationOrAudio, hours: 2, plist: .minimal(for: .locationOrAudio).without("audio")
        ).run()
        #expect(with.backgroundAliveS > 3000)
        #expect(without.backgroundAliveS < 60)
    }

    /// BGTaskScheduler.h: register returns NO "if the identifier isn't included in the
    /// BGTaskSchedulerPermittedIdentifiers Info.plist" (docs/ios-policy.md §Contract; the rule is
    /// `TaskSchedulerModelTests`'). The shell reads the plist first and registers only what it permits.
    @Test("the shell: an identifier the plist does not permit is not registered, no crash, the rest runs")
    func unpermittedIdentifierIsNotRegistered() {
        let processing = BackgroundTaskIdentifiers.processing
        var configuration = SimulationConfiguration(
            strategy: .adaptive, ios: 17, app: IOSShell(), hours: 24, memoryKillFactor: 0, recordsTimeline: true)
        var plist = InfoPlist.minimal(for: .adaptive)
        plist.permittedTaskIdentifiers.remove(processing)
        configuration.plist = plist
        let refused = configuration.run()
        #expect(refused.crashes.isEmpty)
        #expect(refused.submitRefusals == 0, "the shell submits only what it registered")
        #expect(refused.timeline?.contains { $0.contains("register(\(processing))") } == false)
        #expect(refused.processingRuns == 0)
        // The app goes on with what it could register.
        #expect(
            refused.timeline?.contains { $0.contains("BGTask \(BackgroundTaskIdentifiers.refresh) completed") } == true)
        configuration.plist = nil
        let permitted = configuration.run()
        #expect(permitted.crashes.isEmpty)
        #expect(permitted.processingRuns > 0)
    }
}
