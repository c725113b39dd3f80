import BackgroundCore
import Logging

/// Deletes what is older than its retention period (the device's own, else the server's;
/// forever when neither is set), in bounded batches: each batch is one short transaction of at
/// most `batchSize` rows per table, with a yield between batches, so ingest never waits long
/// behind it.
///
/// `run()` sweeps every `interval` on `clock` until cancelled (the continuous clock in `serve`, a
/// clock the test moves in tests); `sweep()` is one pass.
public struct RetentionSweeper: Sendable {
    public var environment: TrackServerEnvironment
    public var batchSize: Int = 1_000
    public var interval: Duration = .seconds(3_600)
    public var clock: any Clock<Duration>

    public init(environment: TrackServerEnvironment, clock: any Clock<Duration> = ContinuousClock()) {
        self.environment = environment
        self.clock = clock
    }

    /// One pass over every device. Returns the rows deleted per table.
    @discardableResult
    public func sweep() async throws -> [String: Int] {
        let store = environment.store
        let own = try await store.retentions()
        let fallback = environment.configuration.retention
        var total: [String: Int] = [:]
        for device in try await store.devices() {
            guard let period = own[device.name] ?? fallback else { continue }
            let cutoff = environment.clock.now - period
            while true {
                try Task.checkCancellation()
                let deleted = try await store.sweep(device: device.name, before: cutoff, limit: batchSize)
                total.merge(deleted, uniquingKeysWith: +)
                guard deleted.values.contains(where: { $0 >= batchSize }) else { break }
                await Task.yield()
            }
        }
        if total.values.contains(where: { $0 > 0 }) {
            environment.logger.info("retention sweep", metadata: ["deleted": "\(total.sorted { $0.key < $1.key })"])
        }
        return total
    }

    /// Sweeps now and every `interval` until the task is cancelled; a failed pass is logged (once
    /// per kind of failure in a row) and retried at the next one.
    public func run() async {
        await PeriodicPass(
            name: "retention sweep", consequence: "old points stay until the next pass",
            interval: interval, retryAfterFailure: interval, clock: clock, environment: environment
        ).run { try await sweep() }
    }
}
