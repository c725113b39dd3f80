/// Balanced `beginBackgroundTask` / `endBackgroundTask` bookkeeping, as a sans-IO state machine.
///
/// The ledger guarantees what UIKit demands and the seeds got wrong:
/// - every task it begins is ended exactly once (by its owner, by a hand-off, or on expiry);
/// - an expiry ends the expiring task in the same step, so the handler returns at once
///   (seed 000 spun `sleep(1)` inside the handler; seed 003 ended the wrong identifier);
/// - an `end` for an unknown or already-ended token is refused with a `.misuse` effect.
///
/// It also keeps seed 003's intent, one newest "master" task: `handOff(name:)` begins a new task
/// and ends every older one, in that order, so the app is never without an assertion in between.
///
/// ```swift
/// var ledger = BackgroundTaskLedger()
/// let (token, effects) = ledger.begin(name: "upload", at: now)   // → [.beginTask(token, "upload")]
/// shell.perform(effects)
/// shell.perform(ledger.end(token, at: later))                    // → [.endTask(token)]
/// ```
public struct BackgroundTaskLedger: Sendable {
    public enum Action: Hashable, Sendable {
        /// Call `beginBackgroundTask(withName:)` and remember the system's identifier for `token`.
        case beginTask(BackgroundTaskToken, name: String)
        /// Call `endBackgroundTask` with the identifier remembered for `token`.
        case endTask(BackgroundTaskToken)
        /// The task's owner lost it to expiry; the task is already ended by the effect before this.
        case expired(BackgroundTaskToken, name: String)
        /// A refused request; log it.
        case misuse(LedgerMisuse)
    }

    /// The most tasks the ledger keeps open at once (the system crashes near 1000).
    public static let openTaskLimit = 64

    private var nextRaw: UInt64 = 1
    private var open: [BackgroundTaskToken: OpenTask] = [:]
    private var ended: [BackgroundTaskToken: String] = [:]
    /// How many tasks were begun and ended over the ledger's life.
    public private(set) var begunCount = 0
    public private(set) var endedCount = 0

    private struct OpenTask: Hashable, Sendable {
        var name: String
        var begunAt: Instant
    }

    public init() {}

    /// Tokens of tasks begun and not yet ended, oldest first.
    public var openTokens: [BackgroundTaskToken] { open.keys.sorted() }

    public var hasOpenTasks: Bool { !open.isEmpty }

    public func name(of token: BackgroundTaskToken) -> String? { open[token]?.name ?? ended[token] }

    /// Begins a named task. Returns `nil` as the token when the open-task limit is reached.
    public mutating func begin(name: String, at now: Instant) -> (BackgroundTaskToken?, [Action]) {
        guard open.count < Self.openTaskLimit else {
            return (nil, [.misuse(.tooManyOpenTasks(limit: Self.openTaskLimit))])
        }
        let token = BackgroundTaskToken(rawValue: nextRaw)
        nextRaw += 1
        open[token] = OpenTask(name: name, begunAt: now)
        begunCount += 1
        return (token, [.beginTask(token, name: name)])
    }

    /// Ends a task its owner finished.
    public mutating func end(_ token: BackgroundTaskToken, at now: Instant) -> [Action] {
        guard let task = open.removeValue(forKey: token) else {
            if let name = ended[token] { return [.misuse(.endOfEndedTask(token, name: name))] }
            return [.misuse(.endOfUnknownTask(token))]
        }
        ended[token] = task.name
        endedCount += 1
        return [.endTask(token)]
    }

    /// The system is about to expire `token`: end it now and tell its owner.
    ///
    /// An expiry for a task that is no longer open (it ended while the system was already calling
    /// the handler) needs nothing: the system forgets ended tasks.
    public mutating func expire(_ token: BackgroundTaskToken, at now: Instant) -> [Action] {
        guard let task = open[token] else { return [] }
        return end(token, at: now) + [.expired(token, name: task.name)]
    }

    /// The system refused to begin `token` (it returned `.invalid`): forget it without an end.
    public mutating func beginRefused(_ token: BackgroundTaskToken) {
        if let task = open.removeValue(forKey: token) {
            ended[token] = task.name
            begunCount -= 1
        }
    }

    /// Begins a new master task named `name`, then ends every older open task.
    public mutating func handOff(name: String, at now: Instant) -> (BackgroundTaskToken?, [Action]) {
        let older = openTokens
        let (token, effects) = begin(name: name, at: now)
        guard token != nil else { return (nil, effects) }
        return (token, older.reduce(into: effects) { $0 += end($1, at: now) })
    }

    /// Ends every open task (the app is about to stop background work).
    public mutating func endAll(at now: Instant) -> [Action] {
        openTokens.flatMap { end($0, at: now) }
    }

    /// The process died: every open task died with it. The ledger restarts empty.
    public mutating func processTerminated() {
        for (token, task) in open { ended[token] = task.name }
        open.removeAll()
    }
}
