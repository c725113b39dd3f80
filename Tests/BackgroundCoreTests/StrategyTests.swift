import Testing

@testable import BackgroundCore

@Suite struct StrategyTests {
    let start = Instant(milliseconds: 1_732_492_800_000)

    func tasksBegun(_ effects: [KeepAliveMachine.Action]) -> [BackgroundTaskToken] {
        effects.compactMap { if case .task(.beginTask(let token, _)) = $0 { token } else { nil } }
    }

    @Test func finiteTaskHoldsOneTaskInTheBackgroundAndEndsItInTheForeground() throws {
        var machine = KeepAliveMachine(strategy: .finiteTask, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: start)
        let token = try #require(tasksBegun(machine.handle(.enteredBackground, at: start + .seconds(60))).first)
        #expect(machine.handle(.enteredForeground, at: start + .seconds(70)).contains(.task(.endTask(token))))
        #expect(!machine.ledger.hasOpenTasks)
    }

    @Test func renewOnExpiryBeginsAnotherTaskInTheHandler() throws {
        var machine = KeepAliveMachine(strategy: .renewOnExpiry, environment: .init(iosMajor: 12))
        _ = machine.handle(.launched(.user), at: start)
        let first = try #require(tasksBegun(machine.handle(.enteredBackground, at: start)).first)
        let effects = machine.handle(.taskExpiring(first), at: start + .seconds(177))
        #expect(effects.first == .task(.endTask(first)))
        #expect(tasksBegun(effects).count == 1)
    }

    @Test func everySlotAsksForOneFixAndTheNextSlot() {
        var machine = KeepAliveMachine(strategy: .finiteTask, environment: .init(iosMajor: 17))
        let effects = machine.handle(.launched(.user), at: start)
        #expect(effects.contains(.requestFix(.best)))
        #expect(effects.contains(.scheduleTimer(KeepAliveMachine.sampleTimer, at: start + .seconds(120))))
        let fix = LocationFix(timestamp: start + .seconds(5), latitude: 31.2, longitude: 121.4, horizontalAccuracy: 8)
        let recorded = machine.handle(.locationFix(fix, source: .oneShot), at: start + .seconds(5))
        let slot = machine.context.sampling.slot(containing: fix.timestamp)
        #expect(recorded.contains(.recordSample(AcceptedFix(fix, trigger: .timer, state: .foreground, slot: slot))))
        #expect(
            !machine.handle(.timerFired(KeepAliveMachine.sampleTimer), at: start + .seconds(60)).contains(
                .requestFix(.best)))
    }

    @Test func adaptiveDegradesToWiFiAccuracyUnderLowPowerMode() {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: start)
        _ = machine.handle(.environmentChanged(.init(iosMajor: 17, lowPowerMode: true)), at: start + .seconds(1))
        let effects = machine.handle(.timerFired(KeepAliveMachine.sampleTimer), at: start + .seconds(120))
        #expect(effects.contains(.requestFix(.hundredMeters)))
    }

    @Test func adaptiveStartsItsRelaunchNetsAndNeverSilentAudioByDefault() {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 16, authorization: .whenInUse))
        var effects = machine.handle(.launched(.user), at: start)
        effects += machine.handle(.enteredBackground, at: start + .seconds(60))
        #expect(effects.contains(.startSignificantChanges) && effects.contains(.startVisits))
        #expect(effects.contains { if case .scheduleRefresh = $0 { true } else { false } })
        #expect(!effects.contains { if case .playSilentAudio = $0 { true } else { false } })
    }

    @Test func adaptiveUsesSilentAudioOnlyWhenTheAppOptedIn() {
        let environment = KeepAliveEnvironment(iosMajor: 16, authorization: .whenInUse, allowsSilentAudio: true)
        var machine = KeepAliveMachine(strategy: .adaptive, environment: environment)
        _ = machine.handle(.launched(.user), at: start)
        #expect(machine.handle(.enteredBackground, at: start + .seconds(60)).contains(.playSilentAudio(nil)))
        #expect(machine.handle(.enteredForeground, at: start + .seconds(90)).contains(.stopAudio))
    }

    @Test func adaptiveHoldsAnActivitySessionForWhenInUseOnIOS17() {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17, authorization: .whenInUse))
        #expect(machine.handle(.launched(.user), at: start).contains(.beginActivitySession))
    }

    @Test func stopEndsEveryTaskAndService() {
        var machine = KeepAliveMachine(strategy: .fixAndTaskChain, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: start)
        _ = machine.handle(.enteredBackground, at: start)
        let effects = machine.handle(.stop, at: start + .seconds(1))
        #expect(!machine.ledger.hasOpenTasks)
        #expect(effects.contains(.stopLocationUpdates) && effects.contains(.cancelTimer(KeepAliveMachine.sampleTimer)))
        #expect(machine.handle(.timerFired(KeepAliveMachine.sampleTimer), at: start + .seconds(120)).isEmpty)
    }

    @Test func tellsTheUserHowToFixLocationPermissions() {
        var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
        _ = machine.handle(.launched(.user), at: start)
        let off = machine.handle(.environmentChanged(.init(iosMajor: 17, locationServicesEnabled: false)), at: start)
        #expect(off.contains(.notify(.locationServicesOff)))
        let denied = machine.handle(.environmentChanged(.init(iosMajor: 17, authorization: .denied)), at: start)
        #expect(denied.contains(.notify(.locationDenied)))
        #expect(UserNotice.locationDenied.message.contains("Settings"))
    }

    @Test func everyPresetHasTheNameItIsSelectedBy() {
        for name in StrategyName.allCases {
            #expect(name.makeStrategy().name == name)
            #expect(StrategyName(rawValue: name.rawValue) == name)
        }
        #expect(
            StrategyName.allCases.map(\.rawValue) == [
                "finite-task", "renew-on-expiry", "location-refresh", "location-or-audio", "fix-and-task-chain",
                "continuous-location", "significant-change", "activity-session", "adaptive",
            ])
    }
}
