import BackgroundCore

/// The app process's life as the system sees it: launches and kills (each process is a new
/// generation), time on screen, background stints (a new task budget each), the intervals it
/// runs in the background, a force quit, and the first unlock after a reboot.
///
/// Events queued for one process carry its generation (or stint), so the simulation drops them
/// once that process died (or that stint ended). What the process itself is running (its
/// machines and state) stays with the simulation; this type keeps the dates.
///
/// ```swift
/// var timeline = ProcessTimeline(start: start)
/// let generation = timeline.processStarted()
/// timeline.leftForeground(at: now, handlerWindow: .seconds(5))
/// timeline.closeRunningInterval(at: later, inForeground: false)   // → alive 12 s, …
/// ```
struct ProcessTimeline: Sendable {
    /// A background interval that ended: how long the app ran, and, for the interval that began
    /// when the user left the app, how long after leaving it.
    struct RunningInterval: Hashable, Sendable {
        var seconds: Double
        var sinceLeavingForeground: Double?
    }

    /// Counts processes and kills: a new value at every launch and every termination.
    private(set) var generation = 0
    /// Counts background stints (task budgets).
    private(set) var stint = 0
    /// The user keeps the app on screen until then (overlapping sessions merge).
    private(set) var foregroundUntil: Instant
    /// The `applicationDidEnterBackground` window ends then.
    private(set) var handlerWindowEnd: Instant?
    /// When the app last left the screen; `nil` while on screen.
    private(set) var backgroundSince: Instant?
    private var runningSince: Instant?
    private var leftForegroundAt: Instant?
    /// The user force-quit the app and iOS then blocks background launches (until the user opens it).
    private(set) var forceQuit = false
    /// After a reboot until the first unlock, the app's files are closed to it (data protection)
    /// and only location events relaunch it.
    private(set) var lockedSinceReboot = false
    /// Settings changed while the app was suspended; it hears of them when it next runs.
    private(set) var settingsUnheard = false

    init(start: Instant) {
        foregroundUntil = start
    }

    // MARK: Launch and death

    /// A new process starts; returns its generation.
    mutating func processStarted() -> Int {
        generation += 1
        return generation
    }

    /// The process died (close its running interval first): what belonged to it goes with it.
    mutating func processEnded() {
        generation += 1
        handlerWindowEnd = nil
        leftForegroundAt = nil
        settingsUnheard = false
    }

    /// The user force-quit the app; `blocksLaunches`: iOS blocks background launches after it.
    mutating func forceQuitted(blocksLaunches: Bool) { forceQuit = blocksLaunches }

    /// The phone rebooted: it stays locked until ``firstUnlock()``.
    mutating func rebooted() { lockedSinceReboot = true }

    /// The user unlocked the phone for the first time since it booted.
    mutating func firstUnlock() { lockedSinceReboot = false }

    /// Whether the phone was unlocked since the last reboot (`isProtectedDataAvailable`).
    var isUnlocked: Bool { !lockedSinceReboot }

    // MARK: Foreground and background

    /// The user opens the app: a force quit no longer blocks launches, and it is on screen.
    mutating func userOpened() {
        forceQuit = false
        backgroundSince = nil
    }

    /// The user keeps the app on screen until at least `until`; returns the merged end.
    mutating func extendForeground(until: Instant) -> Instant {
        foregroundUntil = max(foregroundUntil, until)
        return foregroundUntil
    }

    /// A background app comes to the screen (close its running interval first).
    mutating func enteredForeground() {
        backgroundSince = nil
        leftForegroundAt = nil
    }

    /// The user leaves the app: the `applicationDidEnterBackground` window of `handlerWindow` begins.
    mutating func leftForeground(at now: Instant, handlerWindow: Duration) {
        backgroundSince = now
        leftForegroundAt = now
        handlerWindowEnd = now + handlerWindow
    }

    /// A new background stint (task budget) begins; returns its number.
    mutating func beginStint() -> Int {
        stint += 1
        return stint
    }

    // MARK: Running in the background

    /// The app runs in the background from `now`, unless it already does.
    mutating func startRunning(at now: Instant) {
        if runningSince == nil { runningSince = now }
    }

    /// The app stops running at `now` (suspended, killed or on screen): the background interval
    /// that ends, if any. A foreground app's running time is not background time.
    mutating func closeRunningInterval(at now: Instant, inForeground: Bool) -> RunningInterval? {
        defer { runningSince = nil }
        guard let since = runningSince, !inForeground else { return nil }
        var interval = RunningInterval(seconds: (now - since).seconds)
        if let left = leftForegroundAt {
            interval.sinceLeavingForeground = (now - left).seconds
            leftForegroundAt = nil
        }
        return interval
    }

    // MARK: Settings

    /// Settings changed while the process could not hear them.
    mutating func settingsChangedUnheard() { settingsUnheard = true }

    /// The process runs and hears what changed: `true` if anything did.
    mutating func hearSettings() -> Bool {
        defer { settingsUnheard = false }
        return settingsUnheard
    }
}
