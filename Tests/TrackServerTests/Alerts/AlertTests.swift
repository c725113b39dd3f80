import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Logging
import Synchronization
import Testing
import TrackServer

/// Silence alerts: the rule, and delivery to a webhook on loopback with an injected clock.
@Suite struct AlertTests {
    static let start = TestServer.start

    func device(
        _ name: String, seen: Double?, revoked: Bool = false, silentAfter: Duration? = nil,
        silentSince: Instant? = nil
    ) -> DeviceRecord {
        DeviceRecord(
            name: name, createdAt: Self.start, revokedAt: revoked ? Self.start : nil,
            lastSeenAt: seen.map { Self.start + .seconds($0) }, sampleCount: 1, silentAfter: silentAfter,
            silentSince: silentSince)
    }

    @Test func theRuleAlertsOncePerSilenceAndOncePerReturn() {
        let now = Self.start + .seconds(3600)
        let transitions = AlertRules.transitions(
            devices: [
                device("healthy", seen: 3000),
                device("silent", seen: 0),
                device("already-alerted", seen: 0, silentSince: Self.start + .seconds(600)),
                device("back", seen: 3500, silentSince: Self.start + .seconds(600)),
                device("revoked", seen: 0, revoked: true),
                device("never-seen", seen: nil),
                device("patient", seen: 0, silentAfter: .seconds(7200)),
            ], defaultThreshold: .seconds(600), at: now)
        #expect(transitions.map(\.device) == ["silent", "back"])
        #expect(transitions.first?.kind == .silent && transitions.first?.silentSince == Self.start + .seconds(600))
        #expect(transitions.last?.kind == .back && transitions.last?.silentSince == nil)
    }

    /// One alert per silence, one per return, none while healthy; a receiver that refuses twice
    /// gets the alert on the third try; a restart neither repeats nor misses one.
    @Test func webhookDeliveryWithRetriesAndARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tracks.sqlite").path
        let clock = ManualTime(Self.start)
        let quiet = {
            var logger = Logger(label: "alerts")
            logger.logLevel = .critical
            return logger
        }()
        @Sendable func environment() throws -> TrackServerEnvironment {
            TrackServerEnvironment(store: try SQLiteTrackStore(path: path), clock: clock.serverClock, logger: quiet)
        }
        let first = try environment()
        _ = try await first.store.addDevice(name: "phone", tokenHash: "h", at: clock.now)
        _ = try await first.store.addDevice(name: "gone", tokenHash: "g", at: clock.now)
        #expect(try await first.store.setSilentAfter(device: "phone", .seconds(35 * 60)))
        @Sendable func heard(_ device: String, _ environment: TrackServerEnvironment) async throws {
            let sample = TrackSample(
                key: "k\(clock.now.milliseconds)",
                values: SampleValues(time: clock.now, latitude: 31.23, longitude: 121.47), source: .native)
            _ = try await environment.store.insert([sample], device: device, at: clock.now)
        }
        try await heard("phone", first)
        try await heard("gone", first)
        _ = try await first.store.revokeDevice(named: "gone", at: clock.now)

        let received = Mutex<[(status: Int, body: String)]>([])
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 65_536))
            let status = received.withLock { list -> Int in
                let refused = list.filter { $0.status == 503 }.count
                let status = refused < 2 ? 503 : 200
                list.append((status, body))
                return status
            }
            return Response(status: .init(code: status))
        }
        let receiver = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await receiver.testLive { client in
            let port = try #require(client.port)
            let hook = try #require(URL(string: "http://127.0.0.1:\(port)/hook"))
            var service = AlertService(targets: [.webhook(hook)], environment: first)
            // Healthy for 30 minutes: nothing.
            for _ in 0..<6 {
                clock.advance(by: .seconds(300))
                #expect(try await service.tick() == (0, 0))
            }
            // 40 minutes of silence: an alert, refused twice, delivered on the third try.
            clock.advance(by: .seconds(600))
            #expect(try await service.tick() == (0, 1))
            #expect(try await service.tick() == (0, 0), "not retried before its back-off")
            clock.advance(by: .seconds(5))
            #expect(try await service.tick() == (0, 1))
            clock.advance(by: .seconds(10))
            #expect(try await service.tick() == (1, 0))
            for _ in 0..<4 {
                clock.advance(by: .seconds(600))
                #expect(try await service.tick() == (0, 0), "one alert per silence")
            }
            // Back: one "back".
            try await heard("phone", first)
            #expect(try await service.tick() == (1, 0))
            #expect(try await service.tick() == (0, 0))

            // Silent again while the server is down; a restarted server alerts once, not twice.
            clock.advance(by: .seconds(3600))
            service = AlertService(targets: [.webhook(hook)], environment: try environment())
            #expect(try await service.tick() == (1, 0), "a silence that began during the restart is not missed")
            service = AlertService(targets: [.webhook(hook)], environment: try environment())
            clock.advance(by: .seconds(60))
            #expect(try await service.tick() == (0, 0), "no duplicate after a restart")
        }
        let events = received.withLock { $0 }.filter { $0.status == 200 }.map(\.body)
        #expect(events.count == 3)
        let kinds = events.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["kind"] as? String
        }
        #expect(kinds == ["silent", "back", "silent"])
        #expect(events.allSatisfy { $0.contains("\"device\":\"phone\"") && $0.contains("\"threshold_s\":2100") })
        #expect(events.first?.contains("\"last_position\":[31.23,121.47]") == true)
        #expect(!events.contains { $0.contains("\"gone\"") }, "no alerts for a revoked device")
        let index = try await first.store.devices().first { $0.name == "phone" }
        #expect(index?.silentSince != nil)
    }

    @Test func aCommandTargetGetsTheEventOnStandardInput() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("alert-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let server = try await TestServer()
        let service = AlertService(targets: [.command("cat > '\(out.path)'")], environment: server.environment)
        _ = try await server.store.insert(
            [
                TrackSample(
                    key: "a", values: SampleValues(time: server.clock.now, latitude: 1, longitude: 2), source: .native)
            ],
            device: "iphone-42", at: server.clock.now)
        server.clock.advance(by: .seconds(3600))
        #expect(try await service.tick() == (1, 0))
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(written.contains("\"kind\":\"silent\"") && written.contains("\"device\":\"iphone-42\""))
        let failing = AlertService(targets: [.command("exit 3")], environment: server.environment)
        _ = try await server.store.insert(
            [
                TrackSample(
                    key: "b", values: SampleValues(time: server.clock.now, latitude: 1, longitude: 2), source: .native)
            ],
            device: "iphone-42", at: server.clock.now)
        #expect(try await failing.tick() == (0, 1))
    }

    @Test func aCommandThatHangsIsEndedWhenItsTimeoutPassesOnTheInjectedClock() async throws {
        let clock = SteppedClock()
        // `serve` ignores SIGTERM (its signal source) and children inherit that; so does this one.
        let previous = signal(SIGTERM, SIG_IGN)
        defer { signal(SIGTERM, previous) }
        // Left alone, the child would end by itself after 20 s with status 0, and the call would
        // return nil: the expectations below fail unless the watchdog ended it on the clock.
        let delivery = Task {
            await AlertService.run("exec sleep 20", input: "{}", timeout: .seconds(10), clock: clock)
        }
        await clock.sleepsBegun(1)
        clock.advance(by: .seconds(9))
        #expect(clock.waiting == 1, "the watchdog must not fire before the timeout")
        clock.advance(by: .seconds(1))
        #expect(clock.waiting == 0)
        let failure = await delivery.value
        #expect(failure == "the command did not finish within 10.0 seconds and was killed")
    }

    @Test func theCheckLoopTicksOnTheInjectedClockAndStopsWhenCancelled() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("alert-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let server = try await TestServer()
        let clock = SteppedClock()
        let service = AlertService(
            targets: [.command("cat > '\(out.path)'")], environment: server.environment, clock: clock)
        _ = try await server.store.insert(
            [
                TrackSample(
                    key: "a", values: SampleValues(time: server.clock.now, latitude: 1, longitude: 2), source: .native)
            ],
            device: "iphone-42", at: server.clock.now)
        let loop = Task { await service.run(every: .seconds(30)) }
        await clock.sleepsBegun(1)  // the first check found nothing silent and waits 30 s
        server.clock.advance(by: .seconds(3600))
        #expect(!FileManager.default.fileExists(atPath: out.path), "no check may run before the interval passed")
        clock.advance(by: .seconds(30))
        // The second check delivers (its watchdog is the second sleep) and then waits again.
        await clock.sleepsBegun(3)
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(written.contains("\"kind\":\"silent\"") && written.contains("\"device\":\"iphone-42\""))
        #expect(clock.waiting == 1)
        loop.cancel()
        await loop.value
        #expect(clock.waiting == 0)
    }
}
