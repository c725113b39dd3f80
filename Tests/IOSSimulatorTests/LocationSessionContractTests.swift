import BackgroundCore
import IOSSimulator
import Testing

/// Location sessions (docs/ios-policy.md §Location, §Contract): iOS 18 wants a `CLServiceSession`
/// again within seconds of a relaunch; iOS 17's `CLBackgroundActivitySession` works only when created in the foreground.
@Suite struct LocationSessionContractTests {
    /// Asks for Always (provisional), starts significant changes and holds a service session at
    /// its foreground launch; at a background relaunch it recreates the session if `recreates`.
    static func app(recreates: Bool) -> @Sendable () -> ScriptedApp {
        {
            ScriptedApp { event, _ in
                switch event {
                case .launched(.user):
                    return HostedResult(
                        effects: [.coreLocation(.startMonitoringSignificantLocationChanges)],
                        runtime: [.requestAlwaysAuthorization, .serviceSessionCreated])
                case .launched:
                    return HostedResult(runtime: recreates ? [.serviceSessionCreated] : [])
                default:
                    return HostedResult()
                }
            }
        }
    }

    /// The commute with reboots just after each departure (08:03, 18:03): the process dies, and
    /// the ride's significant changes relaunch it.
    static var rebooted: Scenario {
        var scenario = Scenario.commute()
        scenario.happenings += [(at: 8.05 * 3600, .reboot), (at: 18.05 * 3600, .reboot)]
        return scenario
    }

    @Test("iOS 18: an app that does not recreate its CLServiceSession after a relaunch gets no more location")
    func serviceSessionMustBeRecreated() throws {
        let keeps = SimulationConfiguration.scripted(
            Self.app(recreates: true), strategy: .significantChange, ios: 18, hours: 20, scenario: Self.rebooted
        ).run()
        let forgets = SimulationConfiguration.scripted(
            Self.app(recreates: false), strategy: .significantChange, ios: 18, hours: 20, scenario: Self.rebooted
        ).run()
        try #require(keeps.relaunches >= 2, "the scenario must relaunch the app more than once: \(keeps.relaunches)")
        #expect(forgets.relaunches == 1)
        #expect(forgets.timeline?.contains { $0.contains("no CLServiceSession recreated within 5 s") } == true)
        // iOS 17 has no such deadline: the same app keeps being relaunched.
        let ios17 = SimulationConfiguration.scripted(
            Self.app(recreates: false), strategy: .significantChange, ios: 17, hours: 20, scenario: Self.rebooted
        ).run()
        #expect(ios17.relaunches == keeps.relaunches)
    }

    @Test("iOS 17: a CLBackgroundActivitySession created in the background is a counted warning without effect")
    func activitySessionOnlyFromTheForeground() {
        func run(beginOn trigger: @escaping @Sendable (AppCallback) -> Bool) -> SimulationReport {
            SimulationConfiguration.scripted(
                {
                    ScriptedApp { event, _ in
                        HostedResult(effects: trigger(event) ? [.coreLocation(.startBackgroundActivitySession)] : [])
                    }
                }, strategy: .activitySession, hours: 1
            ).run()
        }
        let background = run { if case .enteredBackground = $0 { true } else { false } }
        let foreground = run { if case .launched(.user) = $0 { true } else { false } }
        #expect(background.warnings == 1)
        #expect(
            background.warningExamples.first?.contains("CLBackgroundActivitySession created in the background")
                == true)
        #expect(foreground.warnings == 0)
    }
}
