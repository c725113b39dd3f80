import BackgroundCore
import Foundation
import LocationLogTesting
import Testing
import TrackServer

/// The retention sweeper on the server's clock and a stepped clock for its loop: no real time.
@Suite("Retention sweeper (virtual time)")
struct RetentionSweeperTests {
    /// 2 500 samples of iphone-42 and of other, one a minute from `StoreContract`'s base.
    static func server(retention: Duration?) async throws -> TestServer {
        let server = try await TestServer { $0.retention = retention }
        for device in ["iphone-42", "other"] {
            _ = try await server.store.insert(
                (0..<2_500).map { StoreContract.sample("\(device)-\($0)", at: Int64($0) * 60) }, device: device,
                at: server.clock.now)
        }
        return server
    }

    @Test func foreverByDefault() async throws {
        let server = try await Self.server(retention: nil)
        server.clock.advance(by: .seconds(3_650 * 86_400))
        let deleted = try await RetentionSweeper(environment: server.environment).sweep()
        #expect(deleted.values.reduce(0, +) == 0)
        #expect(try await server.sampleCount() == 2_500)
    }

    @Test func theServersPeriodDeletesInBoundedBatches() async throws {
        let server = try await Self.server(retention: .seconds(86_400))
        // One day after the 1 000th sample: the first 1 000 of each device are older than a day.
        let thousandth = StoreContract.sample("x", at: 1_000 * 60).time
        server.clock.advance(by: thousandth + .seconds(86_400) - server.clock.now)
        var sweeper = RetentionSweeper(environment: server.environment)
        sweeper.batchSize = 300
        let deleted = try await sweeper.sweep()
        #expect(deleted["sample"] == 2_000)
        #expect(try await server.sampleCount() == 1_500)
        #expect(try await server.sampleCount("other") == 1_500)
        let left = try await server.store.samples(
            device: "iphone-42", from: Instant(milliseconds: 0), to: server.clock.now, limit: 1)
        #expect(left.first?.time == thousandth, "the oldest sample kept is exactly at the cut")
    }

    @Test func aDevicesOwnPeriodWinsOverTheServers() async throws {
        let server = try await Self.server(retention: .seconds(365 * 86_400))
        #expect(try await server.store.setRetention(device: "other", .seconds(86_400)))
        server.clock.advance(by: .seconds(86_400))
        try await RetentionSweeper(environment: server.environment).sweep()
        #expect(try await server.sampleCount() == 2_500, "a year for iphone-42")
        // Samples ended 2 499 min after the base; the clock is a day and 80 min past it.
        let other = try await server.sampleCount("other")
        #expect(other < 2_500 && other > 0, "\(other)")
    }

    @Test func runSweepsEveryIntervalOnItsClock() async throws {
        let server = try await Self.server(retention: .seconds(86_400))
        let clock = SteppedClock()
        var sweeper = RetentionSweeper(environment: server.environment, clock: clock)
        sweeper.interval = .seconds(3_600)
        let task = Task { await sweeper.run() }
        defer { task.cancel() }
        // The first pass runs at once; nothing is a day old yet.
        await clock.sleepsBegun(1)
        #expect(try await server.sampleCount() == 2_500)
        // The samples span 41 h from 80 min before the start: four days on, all are over a day old.
        server.clock.advance(by: .seconds(4 * 86_400))
        clock.advance(by: .seconds(3_600))
        // The second sleep begins once the pass it woke for has finished.
        await clock.sleepsBegun(2)
        #expect(try await server.sampleCount() == 0)
        #expect(try await server.sampleCount("other") == 0)
    }
}
