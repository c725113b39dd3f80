import BackgroundCore
import IOSSimulator
import Testing

/// A fix that cannot be had reaches the app as `locationManager(_:didFailWithError:)`
/// (docs/ios-policy.md §Contract; `requestLocation()`: "If a location fix cannot be determined in a
/// timely manner, the location manager calls the delegate's locationManager(_:didFailWithError:)
/// method instead"). Each case runs with the rule and without it, so removing the rule fails it.
@Suite struct FailedFixContractTests {
    /// An app that asks for a fix at `when` and logs every error it hears.
    static func app(asking when: @escaping @Sendable (AppCallback) -> Bool) -> @Sendable () -> ScriptedApp {
        {
            ScriptedApp(
                { event, _ in
                    if case .launched(.user) = event {
                        // Asks for When-In-Use; the answer arrives as an environment change.
                        let fix: [SystemCall] = when(event) ? [.coreLocation(.requestLocation(.best))] : []
                        return HostedResult(effects: fix, runtime: [.requestWhenInUseAuthorization])
                    }
                    return HostedResult(effects: when(event) ? [.coreLocation(.requestLocation(.best))] : [])
                },
                onLocationFailure: { failure in HostedResult(effects: [.note("app: didFailWithError \(failure)")]) })
        }
    }

    static func run(
        _ app: @escaping @Sendable () -> ScriptedApp, auth: LocationAuthorization, rule: Bool = true
    ) -> [String] {
        var configuration = SimulationConfiguration.scripted(app, hours: 1)
        configuration.authorization = auth
        if !rule { configuration.parameterScales[.contractFailedFixReported] = 0 }
        return configuration.run().timeline ?? []
    }

    @Test("permission denied: requestLocation() fails at once with CLError.denied")
    func deniedFailsAtOnce() {
        let askOnAnswer = Self.app { if case .settingsChanged = $0 { true } else { false } }
        let timeline = Self.run(askOnAnswer, auth: .denied)
        let answered = timeline.first { $0.contains("location authorisation: denied") }
        let failed = timeline.first { $0.contains("app: didFailWithError denied") }
        #expect(answered != nil)
        // Same second as the answer that made the app ask.
        #expect(failed?.prefix(8) == answered?.prefix(8))
        #expect(timeline.contains { $0.contains("requestLocation() failed: didFailWithError(CLError.denied)") })
        // Allowed: the fix comes, no error.
        #expect(!Self.run(askOnAnswer, auth: .whenInUse).contains { $0.contains("didFailWithError") })
        // Without the rule the app never hears of it.
        #expect(!Self.run(askOnAnswer, auth: .denied, rule: false).contains { $0.contains("didFailWithError") })
    }

    @Test("no fix in time (the user never answers the prompt): CLError.locationUnknown at the request's timeout")
    func unknownAtTheTimeout() {
        let askAtLaunch = Self.app { if case .launched = $0 { true } else { false } }
        let timeline = Self.run(askAtLaunch, auth: .notDetermined)
        // Asked at 00:00:00; the table's timeout is 10 s.
        #expect(timeline.contains("00:00:10 app: didFailWithError locationUnknown"), "\(timeline.prefix(20))")
        #expect(!timeline.contains { $0.contains("didFailWithError denied") })
        #expect(!Self.run(askAtLaunch, auth: .notDetermined, rule: false).contains { $0.contains("didFailWithError") })
    }

    @Test("Location Services switched off: a fix asked for fails with CLError.denied, at once")
    func servicesOffFailsAtOnce() {
        var configuration = SimulationConfiguration.scripted(
            Self.app { event in
                if case .settingsChanged(let environment) = event { return !environment.locationServicesEnabled }
                return false
            }, hours: 1)
        configuration.authorization = .whenInUse
        // While the app is still on screen (it leaves after a minute).
        configuration.scenario.happenings.append((at: 30, .locationServices(false)))
        let timeline = configuration.run().timeline ?? []
        #expect(timeline.contains("00:00:30 app: didFailWithError denied"), "\(timeline.prefix(20))")
    }
}
