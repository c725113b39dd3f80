import BackgroundCore

/// `BGTaskScheduler` as the system runs it for one app: the pending refresh and processing
/// requests, and the open task's grant of time (the rules of `register` and `submit`,
/// `TaskSchedulerModel`, are the app's backend's, which judges each call as it is made). It is system state: pending requests outlive the process; the grant dies with it.
///
/// The simulation decides when a request launches (budgets, charging, network); this type keeps
/// which request is current, so a stale launch event is recognised, and which grant is open.
///
/// ```swift
/// var scheduler = TaskScheduler()
/// let request = scheduler.requestRefresh()      // queue `.refreshLaunch(request:)`
/// if scheduler.isRefreshPending(request) { scheduler.refreshLaunched() }
/// ```
struct TaskScheduler: Sendable {
    /// A refresh or processing task that runs: its time lasts until `setTaskCompleted`.
    struct Grant: Hashable, Sendable {
        var identifier: String
        var version: Int
    }

    private var refreshRequest = 0
    private var refreshPending = false
    /// The pending processing request's earliest begin date.
    private(set) var processingEarliest: Instant?
    private(set) var lastProcessingRun: Instant?
    private(set) var grant: Grant?
    private var grantVersion = 0

    // MARK: Refresh

    /// A `BGAppRefreshTaskRequest` was submitted; it replaces the pending one. Returns its number.
    mutating func requestRefresh() -> Int {
        refreshRequest += 1
        refreshPending = true
        return refreshRequest
    }

    /// Whether `request` is still the pending refresh request (not replaced, not launched).
    func isRefreshPending(_ request: Int) -> Bool { request == refreshRequest && refreshPending }

    /// The system launches the pending refresh task.
    mutating func refreshLaunched() {
        refreshPending = false
    }

    // MARK: Processing

    /// A `BGProcessingTaskRequest` was submitted: one pending request, a new one replaces it.
    mutating func requestProcessing(earliest: Instant) {
        processingEarliest = earliest
    }

    /// Whether the pending processing request may run at `now` as far as its dates go: its
    /// earliest date has passed and the last run was at least `minimumInterval` ago.
    /// `minimumInterval` is read only when a task is pending and ran before, so a run that never
    /// needs it does not depend on it (`compare --sensitivity`).
    func processingDue(at now: Instant, minimumInterval: @autoclosure () -> Duration) -> Bool {
        guard let earliest = processingEarliest, now >= earliest else { return false }
        return lastProcessingRun.map { now - $0 >= minimumInterval() } ?? true
    }

    /// The system launches the pending processing task.
    mutating func processingLaunched(at now: Instant) {
        processingEarliest = nil
        lastProcessingRun = now
    }

    // MARK: Grants

    /// A refresh or processing task starts running; returns the grant's version for its
    /// expiry and deadline events.
    mutating func openGrant(_ identifier: String) -> Int {
        grantVersion += 1
        grant = Grant(identifier: identifier, version: grantVersion)
        return grantVersion
    }

    /// `setTaskCompleted(success:)` for `identifier`: `true` if it ended the open grant.
    mutating func completeGrant(_ identifier: String) -> Bool {
        guard let grant, grant.identifier == identifier else { return false }
        self.grant = nil
        return true
    }

    /// The open grant, if `version` is still it.
    func grant(version: Int) -> Grant? {
        guard let grant, grant.version == version else { return nil }
        return grant
    }

    /// The grant of `version` reaches its deadline: it ends; returned if it was still open.
    mutating func endGrant(version: Int) -> Grant? {
        guard let open = grant(version: version) else { return nil }
        grant = nil
        return open
    }

    /// The process died: its grant with it (pending requests stay with the system).
    mutating func processEnded() { grant = nil }
}
