import Foundation

/// A `Clock` the test moves by hand: a sleeper wakes when ``advance(by:)`` passes its deadline,
/// or throws `CancellationError` when its task is cancelled. No real time passes.
///
/// `@unchecked Sendable`: every field is only touched while holding `lock`.
final class SteppedClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var cancelled: Set<Int> = []
    private var started = 0
    private var registered = 0

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    /// Sleepers waiting now.
    var waiting: Int { lock.withLock { sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = lock.withLock {
            started += 1
            return started
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lock.withLock {
                    registered += 1
                    if cancelled.contains(id) { return .failure(CancellationError()) }
                    if deadline <= current { return .success(()) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = lock.withLock {
                cancelled.insert(id)
                return sleepers.firstIndex { $0.id == id }.map { sleepers.remove(at: $0) }
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once `count` sleeps have begun since the clock was made, each waiting or already
    /// resolved (yielding, never sleeping).
    func sleepsBegun(_ count: Int) async {
        while lock.withLock({ registered < count }) { await Task.yield() }
    }
}
