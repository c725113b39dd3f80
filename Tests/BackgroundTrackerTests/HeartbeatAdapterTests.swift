import AppleShadow
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LocationLog
import Testing

@testable import BackgroundTracker

/// Heartbeats that the test answers by hand.
@MainActor
final class FakeHeartbeat: HeartbeatTransport {
    var waiting: [@MainActor @Sendable (HeartbeatMachine.Response) -> Void] = []
    var sent = 0

    func send(_ completion: @escaping @MainActor @Sendable (HeartbeatMachine.Response) -> Void) {
        sent += 1
        waiting.append(completion)
    }

    func answer(_ response: HeartbeatMachine.Response) {
        guard !waiting.isEmpty else { return }
        waiting.removeFirst()(response)
    }
}

extension ShellSuite {
    /// The heartbeat machine through the shell (issue 10 item 2): a session token turns it on;
    /// the server ending the session stops tracking and asks the user to log in again.
    @Suite("Heartbeat adapter")
    @MainActor
    struct HeartbeatAdapterTests {
        func tracker(_ harness: ShellHarness, _ transport: FakeHeartbeat, session: String?) throws -> Tracker {
            let server = try #require(URL(string: "https://tracks.example"))
            return try Tracker(
                configuration: .init(
                    server: server, token: "secret-token", strategy: .adaptive, device: "test-phone",
                    sessionToken: session, heartbeat: .init(interval: .seconds(1800))),
                clock: harness.clock, uploader: harness.uploader, heartbeat: transport, store: harness.store,
                directory: harness.directory.url, iosMajor: 17,
                appInfo: AppInfo(InfoPlist.minimal(for: .adaptive)),
                seed: 7)
        }

        @Test("no session token: no heartbeat at all")
        func offWithoutASession() throws {
            let harness = try ShellHarness()
            let transport = FakeHeartbeat()
            let tracker = try tracker(harness, transport, session: nil)
            tracker.didFinishLaunching(nil)
            tracker.start()
            harness.clock.advance(to: harness.clock.now + .seconds(7200))
            #expect(transport.sent == 0)
            #expect(!harness.clock.scheduled.contains(HeartbeatMachine.timer))
        }

        @Test("a beat at start and every interval without other contact; an upload's answer counts as one")
        func beatsAtTheInterval() throws {
            let harness = try ShellHarness()
            let transport = FakeHeartbeat()
            let tracker = try tracker(harness, transport, session: "session-token")
            tracker.didFinishLaunching(nil)
            tracker.start()
            #expect(transport.sent == 1)
            let start = harness.clock.now
            transport.answer(.active(expiresAt: start + .seconds(3600)))
            harness.clock.advance(to: start + .seconds(1799))
            #expect(transport.sent == 1)
            harness.clock.advance(to: start + .seconds(1800))
            #expect(transport.sent == 2)
            transport.answer(.failed)
            harness.clock.advance(to: start + .seconds(3600))
            #expect(transport.sent == 3)
            transport.answer(.active(expiresAt: start + .seconds(7200)))
            // The user stops tracking: the heartbeat timer goes with it.
            tracker.stop()
            #expect(!harness.clock.scheduled.contains(HeartbeatMachine.timer))
            harness.clock.advance(to: start + .seconds(9000))
            #expect(transport.sent == 3)
        }

        @Test("401 from the server: tracking stops and the user is asked to log in again")
        func rejectionStopsTracking() throws {
            let harness = try ShellHarness()
            let transport = FakeHeartbeat()
            let tracker = try tracker(harness, transport, session: "session-token")
            tracker.didFinishLaunching(nil)
            tracker.start()
            #expect(tracker.machine != nil)
            #expect(!tracker.status.sessionEnded)
            transport.answer(.rejected(status: 401))
            #expect(tracker.machine == nil)
            #expect(!tracker.state.tracking)
            #expect(tracker.status.sessionEnded, "the app's screen can ask the user to log in")
            #expect(tracker.status.notices.contains(.loginExpired))
            #expect(
                harness.system.notificationRequests.contains {
                    $0.identifier == NoticeAdapter.identifier(for: .loginExpired)
                })
            #expect(!harness.clock.scheduled.contains(HeartbeatMachine.timer))
            // The user logs in again: a new session, and tracking starts with a beat.
            let sent = transport.sent
            tracker.credentialsChanged(token: "device-token-2", sessionToken: "session-token-2")
            tracker.start()
            #expect(!tracker.status.sessionEnded)
            #expect(tracker.machine != nil)
            #expect(transport.sent > sent)
        }

        @Test("the live transport reads the answer as docs/protocol.md §Sessions gives it")
        func answersAreRead() {
            let ok = Data(#"{"status":"active","expires_at":1750003600000}"#.utf8)
            #expect(
                HeartbeatMachine.Response(status: 200, body: ok, failed: false)
                    == .active(expiresAt: Instant(milliseconds: 1_750_003_600_000)))
            #expect(
                HeartbeatMachine.Response(status: 401, body: Data(), failed: false)
                    == .rejected(status: 401))
            #expect(
                HeartbeatMachine.Response(status: 403, body: Data(), failed: false)
                    == .rejected(status: 403))
            #expect(HeartbeatMachine.Response(status: 503, body: Data(), failed: false) == .failed)
            #expect(HeartbeatMachine.Response(status: 200, body: Data("{}".utf8), failed: false) == .failed)
            #expect(
                HeartbeatMachine.Response(status: 200, body: Data("[1,".utf8), failed: false) == .failed)
            #expect(HeartbeatMachine.Response(status: nil, body: Data(), failed: true) == .failed)
        }
    }
}
