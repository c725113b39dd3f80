import AppleShadow
import BackgroundCore
import Foundation
import IOSSimulator
import Testing

@testable import IOSShellHost

extension ShellSuite {
    /// The shadow's simulated backend enforces the runtime contract (docs/ios-policy.md §Contract) on whatever app
    /// code calls it: these tests call it as app code would, without the shell.
    @Suite("The simulated system enforces the runtime contract")
    @MainActor
    struct SimulatedSystemContractTests {
        static func system(_ plist: InfoPlist = .minimal(for: .adaptive)) -> SimulatedSystem {
            SimulatedSystem(
                system: HostedSystemState(
                    now: Scenario.defaultStart, isForeground: true, backgroundTimeRemaining: nil,
                    refusesNewTasks: false,
                    environment: SystemSettings(iosMajor: 17, authorization: .notDetermined, batteryLevel: 1),
                    hostAppRegions: 0),
                plist: plist)
        }

        /// Runs `body` with `system` installed as the shadow's backend.
        static func installed(_ system: SimulatedSystem, _ body: () throws -> Void) rethrows {
            let previous = ShadowSystem.backend
            ShadowSystem.backend = system
            defer { ShadowSystem.backend = previous }
            try body()
        }

        @Test("allowsBackgroundLocationUpdates = true without the location mode crashes; with it, not")
        func backgroundLocationNeedsTheMode() {
            for (plist, crashes) in [
                (InfoPlist.minimal(for: .adaptive), false),
                (InfoPlist.minimal(for: .finiteTask), true),
            ] {
                let system = Self.system(plist)
                Self.installed(system) {
                    let manager = CLLocationManager()
                    manager.allowsBackgroundLocationUpdates = true
                    manager.startUpdatingLocation()
                }
                #expect(system.runtime.contains(.crash(.backgroundLocationWithoutMode)) == crashes)
                // After the crash nothing the app asked for was made.
                #expect((system.crashedAfterEffects == 0) == crashes)
            }
        }

        @Test("BGTaskScheduler.register crashes after launch and twice")
        func registration() {
            let refresh = BackgroundTaskIdentifiers.refresh
            let system = Self.system()
            Self.installed(system) {
                system.processStarted()
                #expect(BGTaskScheduler.shared.register(forTaskWithIdentifier: refresh, using: nil) { _ in })
                #expect(!BGTaskScheduler.shared.register(forTaskWithIdentifier: refresh, using: nil) { _ in })
            }
            #expect(system.runtime == [.crash(.registeredTwice(refresh))])

            let late = Self.system()
            Self.installed(late) {
                late.processStarted()
                late.launchFinished()
                _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: refresh, using: nil) { _ in }
            }
            #expect(late.runtime == [.crash(.registeredAfterLaunch(refresh))])
        }

        @Test("BGTaskScheduler.register of an unlisted identifier returns false, no crash; submit throws notPermitted")
        func unlistedIdentifier() {
            // BGTaskScheduler.h: register returns NO "if the identifier isn't included in the
            // BGTaskSchedulerPermittedIdentifiers Info.plist"; submit fails with notPermitted.
            let refresh = BackgroundTaskIdentifiers.refresh
            let unlisted = Self.system(.minimal(for: .continuousLocation))
            Self.installed(unlisted) {
                unlisted.processStarted()
                #expect(!BGTaskScheduler.shared.register(forTaskWithIdentifier: refresh, using: nil) { _ in })
                #expect(throws: BGTaskScheduler.Error(.notPermitted)) {
                    try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refresh))
                }
            }
            #expect(!unlisted.runtime.contains { if case .crash = $0 { true } else { false } })
            #expect(unlisted.runtime == [.submitRefused(identifier: refresh, .notPermitted)])
            #expect(unlisted.launchHandlers[refresh] == nil)
            #expect(unlisted.effects.isEmpty)
            #expect(unlisted.crashedAfterEffects == nil)
        }

        @Test(
            "submit throws BGTaskScheduler.Error: notPermitted unregistered, unavailable with Background App Refresh off"
        )
        func submission() throws {
            let refresh = BackgroundTaskIdentifiers.refresh
            let system = Self.system()
            try Self.installed(system) {
                #expect(throws: BGTaskScheduler.Error(.notPermitted)) {
                    try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refresh))
                }
                system.processStarted()
                _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: refresh, using: nil) { _ in }
                system.system.environment.backgroundRefreshAvailable = false
                #expect(throws: BGTaskScheduler.Error(.unavailable)) {
                    try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refresh))
                }
                system.system.environment.backgroundRefreshAvailable = true
                try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refresh))
            }
            #expect(system.effects.count == 1)
            #expect(BGTaskScheduler.Error.Code.notPermitted.rawValue == 3)
        }

        @Test("UIKit off the main thread is a Main Thread Checker violation; on it, none")
        func mainThreadChecker() async {
            let system = Self.system()
            _ = system.applicationState
            #expect(system.runtime.isEmpty)
            let box = UncheckedBox(system)
            await Task.detached {
                _ = box.system.applicationState
                _ = box.system.backgroundRefreshStatus
            }.value
            let violations = system.runtime.filter { if case .violation = $0 { true } else { false } }
            #expect(violations.count == 2)
            #expect(
                violations.first
                    == .violation(
                        "Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]"))
        }

        @Test("locationServicesEnabled() on the main thread is a warning; off it, none")
        func locationServicesOnMain() async {
            let system = Self.system()
            _ = system.locationServicesEnabled
            #expect(system.runtime.count == 1)
            guard case .warning(let text) = system.runtime.first else {
                Issue.record("no warning for locationServicesEnabled() on the main thread")
                return
            }
            #expect(text.contains("can cause UI unresponsiveness if invoked on the main thread"))
            let box = UncheckedBox(system)
            await Task.detached { _ = box.system.locationServicesEnabled }.value
            #expect(system.runtime.count == 1)
        }

        @Test("authorization requests reach the simulator to prompt; completion ends the task's grant")
        func requestsAndCompletion() {
            let system = Self.system()
            Self.installed(system) {
                let manager = CLLocationManager()
                manager.requestWhenInUseAuthorization()
                manager.requestAlwaysAuthorization()
                let task = BGTask(shadowIdentifier: BackgroundTaskIdentifiers.refresh)
                system.taskLaunched(task)
                task.setTaskCompleted(success: true)
                task.setTaskCompleted(success: true)  // a second completion changes nothing
            }
            #expect(
                system.runtime == [
                    .requestWhenInUseAuthorization, .requestAlwaysAuthorization,
                    .backgroundTaskCompleted(identifier: BackgroundTaskIdentifiers.refresh, success: true),
                ])
        }
    }
}

/// Hands the simulated system to another thread on purpose, to call it from there as buggy app
/// code would.
private final class UncheckedBox: @unchecked Sendable {
    let system: SimulatedSystem
    init(_ system: SimulatedSystem) { self.system = system }
}
