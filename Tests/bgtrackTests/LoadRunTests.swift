import ArgumentParser
import BackgroundCore
import Foundation
import GRDB
import Hummingbird
import LoadGenerator
import LocationLog
import LocationLogTesting
import Logging
import Testing
import TrackServer

@testable import bgtrack

/// `bgtrack load` against real servers on loopback (port 0) on a temporary SQLite file: every
/// protocol's samples are acknowledged and stored once, and the check does catch a lost, a
/// duplicated and an unexpected row. Runs are bounded by `--requests-per-device`, never by time.
@Suite struct LoadRunTests {
    /// A fresh database path; the caller removes it with ``remove(_:)``.
    static func freshDatabase() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-load-\(UUID().uuidString).sqlite").path
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Runs `count` servers on the SQLite file at `path`, each on its own free port, around `body`.
    static func withServers<T: Sendable>(
        _ count: Int, db path: String, _ body: @Sendable ([Int]) async throws -> T
    ) async throws -> T {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.leafletDirectory = nil
        var logger = Logger(label: "load-test")
        logger.logLevel = .critical
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        var apps: [any ApplicationProtocol] = []
        for _ in 0..<count {
            let store = try SQLiteTrackStore(path: path, durability: .processCrash)
            let environment = TrackServerEnvironment(store: store, configuration: configuration, logger: logger)
            apps.append(buildApplication(environment) { port in listening.yield(port) })
        }
        let servers = apps
        // The servers on threads of their own: they answer however busy the other tests keep the
        // cooperative pool.
        return try await onOwnThreads {
            try await withThrowingTaskGroup(of: T?.self) { group in
                for app in servers {
                    group.addTask {
                        try await app.run()
                        return nil
                    }
                }
                var iterator = ports.makeAsyncIterator()
                var found: [Int] = []
                while found.count < count, let port = await iterator.next() { found.append(port) }
                #expect(found.count == count && found.allSatisfy { $0 > 0 })
                let value = try await body(found)
                group.cancelAll()
                return value
            }
        }
    }

    static func command(_ arguments: [String]) throws -> LoadCommand {
        try #require(try BGTrack.parseAsRoot(["load"] + arguments) as? LoadCommand)
    }

    @Test(arguments: [("native", 20), ("overland", 20), ("owntracks", 1), ("osmand", 1)])
    func everyAcknowledgedSampleIsStoredOnce(kind: String, batch: Int) async throws {
        let path = Self.freshDatabase()
        defer { Self.remove(path) }
        let outcome = try await Self.withServers(1, db: path) { ports in
            try await Self.command(
                [
                    "--server", "http://127.0.0.1:\(ports[0])", "--db", path, "--durability", "normal", "--devices",
                    "12",
                    "--connections", "3", "--requests-per-device", "3", "--protocol", kind,
                    "--duration", "5m",
                ] + (kind == "native" || kind == "overland" ? ["--batch", "\(batch)"] : [])
            ).perform()
        }
        #expect(outcome.result.errors.isEmpty, "\(outcome.result.errors)")
        #expect(outcome.result.requests == 36)
        #expect(outcome.result.acknowledgedRequests == 36)
        #expect(outcome.result.acknowledgedSamples == 36 * batch)
        #expect(outcome.result.latencies.count == 36)
        #expect(outcome.result.devices.allSatisfy { $0.acknowledged == 3 * batch && $0.sent == 3 * batch })
        #expect(outcome.check.acknowledged == 36 * batch)
        #expect(outcome.check.stored == 36 * batch)
        #expect(outcome.check.lost == 0 && outcome.check.duplicated == 0 && outcome.check.unexpected == 0)
        #expect(outcome.passed)
        #expect(outcome.text().contains("result        PASS"))
        // The load devices are revoked at the end; their rows stay.
        let store = try SQLiteTrackStore(path: path)
        let devices = try await store.devices()
        #expect(devices.count == 12 && devices.allSatisfy { $0.revokedAt != nil && $0.name.hasPrefix("load-") })
        #expect(devices.map(\.sampleCount).reduce(0, +) == 36 * batch)
    }

    @Test func devicesAreSpreadOverTwoServersOnOneDatabase() async throws {
        let path = Self.freshDatabase()
        defer { Self.remove(path) }
        let outcome = try await Self.withServers(2, db: path) { ports in
            try await Self.command([
                "--server", "http://127.0.0.1:\(ports[0])", "--server", "http://localhost:\(ports[1])", "--db", path,
                "--durability", "normal", "--devices", "6", "--connections", "4", "--requests-per-device", "2",
                "--batch", "7", "--keep-devices", "--json",
            ]).perform()
        }
        #expect(outcome.plan.connections == 4)
        #expect(outcome.plan.devices.map(\.server) == [0, 1, 0, 1, 0, 1])
        #expect((0..<4).flatMap { outcome.plan.devices(ofConnection: $0) }.count == 6)
        #expect(outcome.passed, "\(outcome.text())")
        #expect(outcome.check.stored == 6 * 2 * 7)
        let json = try outcome.jsonText()
        #expect(json.contains("\"passed\" : true") && json.contains("\"acknowledgedSamples\" : 84"), "\(json)")
        let store = try SQLiteTrackStore(path: path)
        #expect(try await store.devices().allSatisfy { $0.revokedAt == nil })
    }

    /// The check is not a tautology: rows deleted, added at a new time and added at an acknowledged
    /// time after the run are reported as lost, unexpected and duplicated, on the right devices.
    @Test func theCheckFindsLostDuplicatedAndUnexpectedRows() async throws {
        let path = Self.freshDatabase()
        defer { Self.remove(path) }
        let outcome = try await Self.withServers(1, db: path) { ports in
            try await Self.command([
                "--server", "http://127.0.0.1:\(ports[0])", "--db", path, "--durability", "normal", "--devices", "4",
                "--connections", "2", "--requests-per-device", "2", "--batch", "5", "--keep-devices",
            ]).perform()
        }
        #expect(outcome.passed)
        let names = outcome.plan.devices.map(\.name)
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    DELETE FROM sample WHERE id IN (
                        SELECT s.id FROM sample s JOIN device d ON d.id = s.device_id WHERE d.name = ? LIMIT 3)
                    """,
                arguments: [names[0]])
        }
        try queue.close()
        let store = try SQLiteTrackStore(path: path)
        let now = ServerClock.system.now
        let acknowledgedTime = Instant(milliseconds: outcome.plan.firstSampleTime + 4)
        let laterTime = Instant(milliseconds: outcome.plan.firstSampleTime + 1_000)
        _ = try await store.insert(
            [
                TrackSample(
                    key: "extra-twin", values: SampleValues(time: acknowledgedTime, latitude: 1, longitude: 1),
                    source: .native)
            ],
            device: names[1], at: now)
        _ = try await store.insert(
            [
                TrackSample(
                    key: "extra-late", values: SampleValues(time: laterTime, latitude: 1, longitude: 1), source: .native
                )
            ],
            device: names[2], at: now)
        let check = try await LoadCheck.run(store: store, plan: outcome.plan, result: outcome.result)
        #expect(check.lost == 3 && check.duplicated == 1 && check.unexpected == 1)
        #expect(check.acknowledged == 40 && check.stored == 40 - 3 + 2)
        #expect(check.problems.map(\.name) == Array(names[0...2]))
        #expect(check.problems.first?.lost == 3)
        var tampered = outcome
        tampered.check = check
        #expect(!tampered.passed)
        let text = tampered.text()
        #expect(text.contains("3 lost, 1 duplicated, 1 unexpected") && text.contains("result        FAIL"), "\(text)")
    }
}
