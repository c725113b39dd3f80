import BackgroundCore

/// UIKit's background execution for one app (`SystemCall.uiKit`): the tasks it holds open with
/// `beginBackgroundTask`, the deadline of the current background stint's budget (which makes
/// `beginBackgroundTask` return `.invalid` once all but spent, docs/ios-policy.md §Contract), and
/// the end of the runtime a system wake grants. All of it dies with the process; the foreground
/// has no stint.
///
/// ```swift
/// var time = BackgroundTime()
/// time.stintDeadline = now + .seconds(30)
/// time.begin(token)                                          // → 1 task open
/// time.refusesNewTasks(at: now + .seconds(28), lead: .seconds(5))  // → true
/// ```
struct BackgroundTime: Sendable {
    /// The `beginBackgroundTask` assertions the system holds for the app.
    private(set) var openTasks: Set<BackgroundTaskToken> = []
    /// When the current background stint's budget runs out (`nil` in the foreground).
    var stintDeadline: Instant?
    /// When the runtime of the current system wake ends, if one was granted.
    var wakeEnd: Instant?
    /// The silent push whose fetch completion handler the app has not called yet, by version:
    /// it holds the app running until the handler is called or its 30 s are up.
    private(set) var pushHandler: Int?
    private var pushVersion = 0

    /// Whether `beginBackgroundTask` returns `.invalid` at `now`: the stint's time is within
    /// `lead` of running out (only in the background, where there is a stint).
    func refusesNewTasks(at now: Instant, lead: Duration) -> Bool {
        stintDeadline.map { $0 - now <= lead } == true
    }

    /// Whether an open task holds the app running at `now` (within the stint's budget).
    func taskHolds(at now: Instant) -> Bool {
        guard !openTasks.isEmpty, let stintDeadline else { return false }
        return now < stintDeadline
    }

    /// `beginBackgroundTask` granted as `token`; returns how many tasks are open now.
    mutating func begin(_ token: BackgroundTaskToken) -> Int {
        openTasks.insert(token)
        return openTasks.count
    }

    /// `endBackgroundTask`; `false` if the system holds no such task.
    mutating func end(_ token: BackgroundTaskToken) -> Bool {
        openTasks.remove(token) != nil
    }

    /// A system wake grants `runtime` more from `now` (never less than it granted already).
    mutating func extendWake(until end: Instant) {
        wakeEnd = max(wakeEnd ?? end, end)
    }

    /// A silent push reaches the app with a fetch completion handler; returns its version.
    mutating func openPushHandler() -> Int {
        pushVersion += 1
        pushHandler = pushVersion
        return pushVersion
    }

    /// The app called the push's handler: `true` if one was open.
    mutating func completePushHandler() -> Bool {
        defer { pushHandler = nil }
        return pushHandler != nil
    }

    /// The push of `version` reached its deadline: `true` (and it is closed) if its handler was
    /// never called.
    mutating func pushHandlerOverdue(version: Int) -> Bool {
        guard pushHandler == version else { return false }
        pushHandler = nil
        return true
    }

    /// The app came to the screen: no stint, no wake runtime (its tasks stay open).
    mutating func enteredForeground() {
        stintDeadline = nil
        wakeEnd = nil
    }

    /// The process died: its tasks with it.
    mutating func processEnded() {
        openTasks.removeAll()
        pushHandler = nil
        enteredForeground()
    }
}
