import AppleShadow
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// Issue 40, observation 1: a location event can relaunch the app after a reboot and before
    /// the user first unlocks the phone, when the store's files cannot be opened. The tracker
    /// keeps tracking on a held store and moves the samples in at the first unlock.
    @Suite("A launch before the first unlock")
    @MainActor
    struct FirstUnlockTests {
        /// The phone rebooted: a new process over the same files, with a system that has nothing
        /// of the old one's, an hour later.
        private func rebooted(_ before: ShellHarness) throws -> ShellHarness {
            let system = FakeSystem()
            system.authorization = before.system.authorization
            let after = try ShellHarness(system: system, store: before.store, directory: before.directory)
            after.clock.advance(to: before.clock.now + .seconds(3600))
            return after
        }

        /// A tracker of a phone that rebooted: locked, launched in the background for a significant
        /// change, opening the store only through `open` (which fails while the phone is locked).
        private func lockedLaunch(
            _ harness: ShellHarness, heartbeat: FakeHeartbeat? = nil, sessionToken: String? = nil,
            opened: @escaping @MainActor () -> Void = {}
        ) throws -> Tracker {
            harness.system.isProtectedDataAvailable = false
            harness.system.applicationState = .background
            let system = harness.system
            let store = harness.store
            let tracker = try Tracker(
                configuration: .init(
                    server: try #require(URL(string: "https://tracks.example")), token: "", strategy: .adaptive,
                    device: "test-phone", sessionToken: sessionToken, heartbeat: .init(interval: .seconds(1800))),
                clock: harness.clock, uploader: harness.uploader, heartbeat: heartbeat,
                openStore: {
                    // As iOS: the store's class is closed until the first unlock.
                    guard system.isProtectedDataAvailable else { throw CocoaError(.fileReadNoPermission) }
                    opened()
                    return store
                }, directory: harness.directory.url, iosMajor: 18,
                appInfo: AppInfo(InfoPlist.minimal(for: .adaptive)), seed: 7)
            tracker.didFinishLaunching([.location: true])
            return tracker
        }

        private func heldFiles(_ harness: ShellHarness) -> [String] {
            let held = harness.directory.url.appendingPathComponent("held").path
            return ((try? FileManager.default.contentsOfDirectory(atPath: held)) ?? []).filter {
                $0.hasSuffix(".sqlite")
            }
        }

        @Test("it tracks into a held store, uploads nothing, and moves every sample in at the first unlock")
        func heldUntilFirstUnlock() throws {
            let previous = try ShellHarness()
            // Before the reboot: tracking on (iOS 18, with its sessions), one sample stored,
            // uploaded and acknowledged, and one more stored.
            previous.system.authorization = .authorizedWhenInUse  // the adaptive strategy holds a session then
            let before = try previous.tracker(.adaptive, ios: 18)
            before.didFinishLaunching(nil)
            before.start()
            try previous.storeOneSample(before)
            let upload = try #require(previous.uploader.uploads.first)
            previous.uploader.finish(
                upload.description, status: 200,
                body: previous.acknowledgement(Array(try previous.store.pendingIDs())))
            previous.clock.advance(to: previous.clock.now + .seconds(120))
            try previous.storeOneSample(before)
            let storedBefore = try previous.store.pendingIDs()
            #expect(storedBefore.count == 1)

            let harness = try rebooted(previous)
            var opens = 0
            let tracker = try lockedLaunch(harness) { opens += 1 }
            #expect(opens == 0, "the store is not opened before the first unlock")
            #expect(tracker.isWaitingForFirstUnlock)
            #expect(tracker.status.isTracking, "the launch flags said tracking was on")
            #expect(harness.system.serviceSessions.count == 1, "the iOS 18 session is recreated at once")
            #expect(harness.system.activitySessions.count == 1)
            try harness.storeOneSample(tracker)
            harness.clock.advance(to: harness.clock.now + .seconds(120))
            try harness.storeOneSample(tracker)
            let held = try tracker.store.pendingIDs()
            #expect(held.count == 2, "the relaunch's fixes are kept")
            #expect(try harness.store.pendingIDs() == storedBefore, "nothing is written to the closed store")
            #expect(heldFiles(harness).count == 1)
            harness.clock.advance(to: harness.clock.now + .seconds(3600))
            #expect(harness.uploader.uploads.isEmpty, "nothing is uploaded before the unlock")

            harness.system.isProtectedDataAvailable = true
            tracker.protectedDataDidBecomeAvailable()
            #expect(opens == 1)
            #expect(!tracker.isWaitingForFirstUnlock)
            #expect(try harness.store.pendingIDs() == storedBefore.union(held), "every held sample moved in")
            #expect(heldFiles(harness).isEmpty)
            tracker.protectedDataDidBecomeAvailable()
            #expect(opens == 1, "a second call does nothing")
            harness.clock.advance(to: harness.clock.now + .seconds(3600))
            #expect(!harness.uploader.uploads.isEmpty, "uploads resume after the unlock")
        }

        @Test("the held samples of a process killed before the unlock move in at the next launch")
        func heldFileOfAKilledProcess() throws {
            let before = try ShellHarness()
            _ = try before.trackingWithOneSample()
            let harness = try rebooted(before)
            var held: Set<UUID> = []
            do {
                let tracker = try lockedLaunch(harness)
                try harness.storeOneSample(tracker)
                held = try tracker.store.pendingIDs()
            }  // killed: the process's memory is gone, its held file stays
            #expect(held.count == 1)
            #expect(!(try harness.store.pendingIDs()).isSuperset(of: held))

            harness.system.isProtectedDataAvailable = true
            harness.system.applicationState = .active
            let next = try harness.tracker(.adaptive, ios: 18)
            next.didFinishLaunching(nil)
            #expect(try harness.store.pendingIDs().isSuperset(of: held))
            #expect(heldFiles(harness).isEmpty)
        }

        @Test("a phone that never tracked stays off before the first unlock")
        func neverTracked() throws {
            let harness = try ShellHarness()
            let tracker = try lockedLaunch(harness)
            #expect(tracker.isWaitingForFirstUnlock)
            #expect(!tracker.status.isTracking)
        }

        @Test("no heartbeat before the unlock (the session token may be unreadable); heartbeats after it")
        func heartbeatsWaitForTheUnlock() throws {
            let previous = try ShellHarness()
            let before = try previous.tracker(.adaptive, ios: 18)
            before.didFinishLaunching(nil)
            before.start()
            let harness = try rebooted(previous)
            let transport = FakeHeartbeat()
            let tracker = try lockedLaunch(harness, heartbeat: transport, sessionToken: "stale")
            harness.clock.advance(to: harness.clock.now + .seconds(7200))
            #expect(tracker.status.isTracking)
            #expect(transport.sent == 0, "no heartbeat while the phone has not been unlocked")

            harness.system.isProtectedDataAvailable = true
            var settings = tracker.configuration
            settings.sessionToken = "fresh-session"
            tracker.protectedDataDidBecomeAvailable(configuration: settings)
            #expect(transport.sent == 1, "the session's heartbeat starts at the unlock")
            #expect(tracker.configuration.sessionToken == "fresh-session")
        }

        @Test("the launch flags carry no place, time or credential")
        func launchFlagsHoldNoPersonalData() throws {
            let harness = try ShellHarness()
            _ = try harness.trackingWithOneSample()
            let url = harness.directory.url.appendingPathComponent("shell-launch.json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            #expect(Set(object.keys) == ["tracking", "activitySession", "strategy"])
            #expect(object["tracking"] as? Bool == true)
            #expect(object["strategy"] as? String == "adaptive")
        }

        @Test("before the unlock the strategy that ran goes on; at the unlock the app's settings come in")
        func strategyFromFlagsAndSettingsAtUnlock() throws {
            let previous = try ShellHarness()
            let before = try previous.tracker(.significantChange, ios: 18)
            before.didFinishLaunching(nil)
            before.start()
            let harness = try rebooted(previous)
            // The app could not read its settings: it passes its defaults (adaptive, no token).
            let tracker = try lockedLaunch(harness)
            #expect(tracker.configuration.strategy == .significantChange)
            #expect(tracker.status.isTracking)

            harness.system.isProtectedDataAvailable = true
            var settings = tracker.configuration
            settings.token = "the-real-token"
            settings.server = try #require(URL(string: "https://tracks.example.org"))
            tracker.protectedDataDidBecomeAvailable(configuration: settings)
            #expect(tracker.configuration.token == "the-real-token")
            #expect(tracker.configuration.server.host == "tracks.example.org")
            #expect(!tracker.isWaitingForFirstUnlock)
        }
    }
}
