import BackgroundCore

/// The app's timers as the system runs them (GCD timers in the process): a timer fires only in a
/// running app; in a suspended one it waits and fires when the app runs again; all die with the
/// process.
///
/// Every scheduling gets a new version from a counter that never repeats, so an event queued for
/// a timer that was rescheduled, cancelled or killed with its process stays stale.
///
/// ```swift
/// var timers = AppTimers()
/// let version = timers.schedule("sample")            // queue `.appTimer("sample", version)`
/// timers.isCurrent("sample", version: version)       // → true until rescheduled or cancelled
/// ```
struct AppTimers: Sendable {
    private var versions: [TimerID: Int] = [:]
    private var serial = 0
    /// Timers that came due while the app was suspended, in the order they came due.
    private(set) var overdue: [TimerID] = []

    /// Schedules (or reschedules) `id`; returns the version its firing event must carry.
    mutating func schedule(_ id: TimerID) -> Int {
        serial += 1
        versions[id] = serial
        overdue.removeAll { $0 == id }
        return serial
    }

    mutating func cancel(_ id: TimerID) {
        versions[id] = nil
        overdue.removeAll { $0 == id }
    }

    /// Whether an event for `id` at `version` is the timer's latest scheduling.
    func isCurrent(_ id: TimerID, version: Int) -> Bool { versions[id] == version }

    /// The timer fired in a running app: it is done.
    mutating func fired(_ id: TimerID) { versions[id] = nil }

    /// The timer came due while the app was suspended: it fires when the app next runs.
    mutating func cameDueWhileSuspended(_ id: TimerID) {
        if !overdue.contains(id) { overdue.append(id) }
    }

    /// The app runs again: the overdue timers (still scheduled) to fire now, in order.
    mutating func takeOverdue() -> [(id: TimerID, version: Int)] {
        let due = overdue
        overdue.removeAll()
        return due.compactMap { id in versions[id].map { (id, $0) } }
    }

    /// The process died, and its timers with it.
    mutating func processEnded() {
        versions.removeAll()
        overdue.removeAll()
    }
}
