import BackgroundCore
import Foundation
import LocationLog
import LocationLogTesting
import Logging
import Testing
import TrackServer

/// The silence alerts say the phone's reasons when it reported them, and nothing when it did not.
@Suite("Gap intervals: alerts say the reason")
struct GapAlertTests {
    static let start = TestServer.start

    func queuedJSON(_ environment: TrackServerEnvironment, at now: Instant) async throws -> [String] {
        let due = try await environment.store.dueAlerts(at: now, limit: 100)
        for alert in due { try await environment.store.alertDelivered(id: alert.id) }
        return due.map(\.delivery.json)
    }

    @Test func silentAndBackAlertsCarryTheReportedReasons() async throws {
        let clock = ManualTime(Self.start)
        var quiet = Logger(label: "alerts")
        quiet.logLevel = .critical
        let environment = TrackServerEnvironment(
            store: try SQLiteTrackStore.inMemory(), clock: clock.serverClock, logger: quiet)
        let store = environment.store
        for name in ["phone", "mute"] {
            _ = try await store.addDevice(name: name, tokenHash: "h-\(name)", at: clock.now)
            #expect(try await store.setSilentAfter(device: name, .seconds(35 * 60)))
            let sample = TrackSample(
                key: "k-\(name)", values: SampleValues(time: clock.now, latitude: 31.23, longitude: 121.47),
                source: .native)
            _ = try await store.insert([sample], device: name, at: clock.now)
        }
        // The phone reported, with its last upload, that Location Services had just been off.
        let off = GapInterval(
            start: Self.start - .seconds(600), end: Self.start - .seconds(60), reason: .locationServicesOff)
        try await store.insertGaps([IngestGap(id: "g-off", interval: off)], device: "phone", at: clock.now)
        let service = AlertService(
            targets: [.webhook(try #require(URL(string: "http://127.0.0.1:9/hook")))], environment: environment)

        clock.advance(by: .seconds(3600))
        try await service.check()
        let silent = try await queuedJSON(environment, at: clock.now)
        #expect(silent.count == 2)
        let phone = try #require(silent.first { $0.contains("\"device\":\"phone\"") })
        #expect(phone.contains("\"reasons\":[") && phone.contains("Location Services were off"), "\(phone)")
        let mute = try #require(silent.first { $0.contains("\"device\":\"mute\"") })
        #expect(!mute.contains("reasons"), "no reason reported, none invented: \(mute)")

        // Back: its first upload after the silence says why it was quiet.
        let quit = GapInterval(
            start: Self.start, end: clock.now, reason: .forceQuit, detail: "the user reopened it")
        try await store.insertGaps([IngestGap(id: "g-quit", interval: quit)], device: "phone", at: clock.now)
        let sample = TrackSample(
            key: "k-back", values: SampleValues(time: clock.now, latitude: 31.23, longitude: 121.47), source: .native)
        _ = try await store.insert([sample], device: "phone", at: clock.now)
        try await service.check()
        let back = try await queuedJSON(environment, at: clock.now)
        #expect(back.count == 1)
        let text = try #require(back.first)
        #expect(text.contains("\"kind\":\"back\""))
        #expect(text.contains("no samples, the app was force-quit; the user reopened it"), "\(text)")
    }
}
