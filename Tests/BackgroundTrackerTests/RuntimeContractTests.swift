import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// What iOS kills apps for (docs/ios-policy.md §Contract), from the shell's side: it asks only for what the
    /// app's `Info.plist` declares, registers tasks only during launch, completes its wakes, and
    /// asks for Always as Apple recommends.
    @Suite("The shell obeys iOS's runtime contract")
    @MainActor
    struct RuntimeContractTests {
        static let noModes = AppInfo(backgroundModes: [], permittedTaskIdentifiers: [])

        func backgroundUpdateSettings(_ system: FakeSystem) -> [Bool] {
            system.sets.compactMap {
                if case .allowsBackgroundLocationUpdates(let value) = $0.property { return value }
                return nil
            }
        }

        @Test("the Info.plist is read as iOS reads it: entries of another type count as absent")
        func infoDictionary() {
            let info = AppInfo(infoDictionary: [
                "UIBackgroundModes": ["location", 7, "fetch"] as [Any],
                "BGTaskSchedulerPermittedIdentifiers": "com.backgroundtracker.refresh",
            ])
            #expect(info.backgroundModes == ["location", "fetch"])
            #expect(info.allowsBackgroundLocation)
            #expect(info.permittedTaskIdentifiers.isEmpty, "a string where a list belongs lists nothing")
            #expect(AppInfo(infoDictionary: [:]) == Self.noModes)
        }

        @Test("without the location mode, allowsBackgroundLocationUpdates is never set to true")
        func backgroundUpdatesNeedTheMode() throws {
            for strategy in StrategyName.allCases {
                let harness = try ShellHarness()
                let tracker = try harness.tracker(strategy, appInfo: Self.noModes)
                tracker.didFinishLaunching(nil)
                tracker.start()
                harness.system.applicationState = .background
                tracker.applicationDidEnterBackground()
                harness.clock.advance(to: harness.clock.now + .seconds(600))
                #expect(!backgroundUpdateSettings(harness.system).contains(true), "\(strategy.rawValue)")
            }
        }

        @Test("with the location mode, a strategy that wants background updates gets them")
        func backgroundUpdatesWithTheMode() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.continuousLocation)
            tracker.didFinishLaunching(nil)
            tracker.start()
            #expect(backgroundUpdateSettings(harness.system).contains(true))
            #expect(
                harness.system.trace.contains { $0.contains("UIBackgroundModes") } == false,
                "nothing to report when the mode is there")
        }

        @Test("one-shot fixes of a strategy without the location mode do not ask for background updates")
        func oneShotWithoutTheMode() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.significantChange)
            tracker.didFinishLaunching(nil)
            tracker.start()
            let oneShot = try #require(tracker.location?.oneShot)
            tracker.location?.requestFix(.best, source: .oneShot)
            let sets = harness.system.sets.filter { $0.manager == ObjectIdentifier(oneShot) }.map(\.property)
            #expect(sets.contains(.allowsBackgroundLocationUpdates(false)))
            #expect(!sets.contains(.allowsBackgroundLocationUpdates(true)))
        }

        @Test("only identifiers the Info.plist permits are registered, and only those are submitted")
        func registersOnlyPermittedIdentifiers() throws {
            let harness = try ShellHarness()
            let refreshOnly = AppInfo(
                backgroundModes: ["location", "fetch"], permittedTaskIdentifiers: [BackgroundTaskIdentifiers.refresh])
            let tracker = try harness.tracker(.adaptive, appInfo: refreshOnly)
            tracker.didFinishLaunching(nil)
            tracker.start()
            harness.system.applicationState = .background
            tracker.applicationDidEnterBackground()
            #expect(Set(harness.system.launchHandlers.keys) == [BackgroundTaskIdentifiers.refresh])
            #expect(Set(harness.system.submitted.map(\.identifier)) == [BackgroundTaskIdentifiers.refresh])
        }

        @Test("start() before didFinishLaunching is reported, registers nothing, and still tracks")
        func startBeforeLaunchIsAProgrammingError() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.start()
            #expect(harness.system.launchHandlers.isEmpty, "a registration after launch raises on iOS")
            #expect(tracker.status.lastProblem?.contains("before didFinishLaunching(_:)") == true)
            #expect(tracker.status.isTracking)
            // The late call the app then makes changes nothing: registration stays off.
            tracker.didFinishLaunching(nil)
            #expect(harness.system.launchHandlers.isEmpty)
            #expect(harness.system.submitted.isEmpty, "nothing is submitted that was not registered")
        }

        @Test("a refresh task stays open until the wake's fix arrives, then is completed once")
        func refreshCompletesWhenItsWorkIsDone() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingInBackground(.adaptive)
            let handler = try #require(harness.system.launchHandlers[BackgroundTaskIdentifiers.refresh])
            handler(BGTask(shadowIdentifier: BackgroundTaskIdentifiers.refresh))
            #expect(tracker.location?.isAwaitingFix == true, "the wake asked for a fix")
            #expect(harness.system.completedTasks.isEmpty, "not completed while its fix is pending")

            try harness.storeOneSample(tracker)

            #expect(harness.system.completedTasks.map(\.identifier) == [BackgroundTaskIdentifiers.refresh])
            #expect(harness.system.completedTasks.first?.success == true)
            #expect(try harness.store.pendingCount() >= 1, "the wake's fix was stored before completing")
        }

        @Test("a silent push: the handler is called once the wake's fix is stored, with new data")
        func silentPushCompletesWithNewData() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingInBackground(.adaptive)
            var results: [UIBackgroundFetchResult] = []
            tracker.didReceiveRemoteNotification { results.append($0) }
            #expect(tracker.location?.isAwaitingFix == true, "the push's wake asked for a fix")
            #expect(results.isEmpty, "not called while the fix is pending")
            try harness.storeOneSample(tracker)
            #expect(results == [.newData])
            // Its deadline timer went with it: nothing is called a second time.
            harness.clock.advance(to: harness.clock.now + .seconds(60))
            #expect(results == [.newData])
        }

        @Test("a silent push whose fix never comes: .failed at 25 s, within iOS's 30 s, once")
        func silentPushFailsAtItsDeadline() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingInBackground(.adaptive)
            let start = harness.clock.now
            var results: [UIBackgroundFetchResult] = []
            tracker.didReceiveRemoteNotification { results.append($0) }
            harness.clock.advance(to: start + .seconds(24))
            #expect(results.isEmpty)
            harness.clock.advance(to: start + .seconds(25))
            #expect(results == [.failed])
            try harness.storeOneSample(tracker)
            #expect(results == [.failed])
        }

        @Test("a silent push while not tracking: .noData at once")
        func silentPushWhileNotTracking() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            var results: [UIBackgroundFetchResult] = []
            tracker.didReceiveRemoteNotification { results.append($0) }
            #expect(results == [.noData])
        }

        @Test("a refresh task's expiration handler, called off the main thread, completes it once")
        func expirationOffTheMainThread() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingInBackground(.adaptive)
            let handler = try #require(harness.system.launchHandlers[BackgroundTaskIdentifiers.refresh])
            let task = BGTask(shadowIdentifier: BackgroundTaskIdentifiers.refresh)
            handler(task)
            let expiration = try #require(task.expirationHandler)
            nonisolated(unsafe) let unsafeExpiration = expiration
            let ranOnMain = onAnotherThread {
                unsafeExpiration()
                return Thread.isMainThread
            }
            #expect(!ranOnMain)
            #expect(harness.system.completedTasks.map(\.success) == [false])

            // The fix arriving afterwards completes nothing a second time.
            try harness.storeOneSample(tracker)
            #expect(harness.system.completedTasks.count == 1)
        }

        @Test("When-In-Use first at start(); the Always upgrade only when the app asks, and once")
        func authorizationAsAppleRecommends() throws {
            let harness = try ShellHarness()
            harness.system.authorization = .notDetermined
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            let requests = {
                harness.system.calls.map(\.call).filter {
                    "\($0)".hasPrefix("request") && "\($0)".hasSuffix("Authorization")
                }
            }
            #expect(requests() == [.requestWhenInUseAuthorization])
            #expect(tracker.status.authorization == .notDetermined)
            #expect(!tracker.status.canRequestAlways)

            harness.system.authorization = .authorizedWhenInUse
            let manager = try #require(tracker.location?.updates)
            manager.delegate?.locationManagerDidChangeAuthorization(manager)
            #expect(tracker.status.authorization == .whenInUse)
            #expect(tracker.status.canRequestAlways, "adaptive relaunches the app with Always")
            tracker.stop()
            tracker.start()
            #expect(requests() == [.requestWhenInUseAuthorization], "start() never asks for Always by itself")

            tracker.requestAlwaysAuthorization()
            tracker.requestAlwaysAuthorization()
            #expect(requests() == [.requestWhenInUseAuthorization, .requestAlwaysAuthorization], "asked once")
            #expect(!tracker.status.canRequestAlways)
        }

        @Test("a strategy that never needs Always does not offer the upgrade")
        func noUpgradeWithoutNeed() throws {
            let harness = try ShellHarness()
            harness.system.authorization = .authorizedWhenInUse
            let tracker = try harness.tracker(.continuousLocation)
            tracker.didFinishLaunching(nil)
            tracker.start()
            #expect(tracker.status.authorization == .whenInUse)
            #expect(!tracker.status.canRequestAlways)
        }
    }
}
