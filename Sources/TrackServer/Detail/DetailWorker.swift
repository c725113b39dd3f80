import BackgroundCore
import Logging

/// Works out the detail levels of pending device-days in the background (issue 41 item 2): the
/// map route only reads them, so a read never writes (it works on a full disk, and the first read
/// of a year costs what later ones do). An insert marks its days pending; this redoes them a few
/// days per transaction (``dayLimit``), with a yield between, so ingest never waits long behind
/// it, and looks again every ``interval``. A pending day's new points are not drawn until it has
/// run (at most ``interval`` after the upload on an idle server).
///
/// `run()` loops on `clock` until cancelled (the continuous clock in `serve`); `workPending()` is
/// one pass, which tests call instead of waiting.
public struct DetailWorker: Sendable {
    public var environment: TrackServerEnvironment
    public var dayLimit: Int = 16
    public var interval: Duration = .seconds(2)
    /// After a failed pass (a full disk), the wait before the next one.
    public var retryAfterFailure: Duration = .seconds(30)
    public var clock: any Clock<Duration>

    public init(environment: TrackServerEnvironment, clock: any Clock<Duration> = ContinuousClock()) {
        self.environment = environment
        self.clock = clock
    }

    /// Redoes every pending day. Returns how many it redid.
    @discardableResult
    public func workPending() async throws -> Int {
        let detail = environment.store
        let rules = environment.configuration.cleanupRules
        let gap = environment.configuration.gapThreshold
        var total = 0
        while true {
            try Task.checkCancellation()
            let done = try await detail.refreshPendingDetail(rules: rules, maximumGap: gap, dayLimit: dayLimit)
            total += done
            guard done >= dayLimit else { break }
            await Task.yield()
        }
        if total > 0 { environment.logger.debug("detail levels worked out", metadata: ["days": "\(total)"]) }
        return total
    }

    /// Works every ``interval`` until the task is cancelled; a failed pass is logged (once per
    /// kind of failure in a row) and retried after ``retryAfterFailure``.
    public func run() async {
        await PeriodicPass(
            name: "detail levels", consequence: "maps draw the days already worked out, retrying",
            interval: interval, retryAfterFailure: retryAfterFailure, clock: clock, environment: environment
        ).run { try await workPending() }
    }
}
