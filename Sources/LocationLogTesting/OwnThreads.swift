import Foundation

// Swift Testing runs every test as a task on Swift's cooperative pool, which has one thread per
// core: two on the machines CI runs on. A test that blocks one of those threads (it waits for a
// child process, a compiler run or a blocking socket) takes half the pool from every other test
// for as long as it waits, and a live server's handlers, queued behind it, stop answering: CI
// once saw real-socket tests time out after ten seconds with no answer while a kill test and a
// compiler run held both threads. The two helpers below keep tests off each other's threads.

/// Runs blocking work (a child process, a compiler run, a blocking socket) on a thread of its
/// own and waits for it without holding a thread of the cooperative pool.
///
/// The work runs outside the test's task, so it records no issues itself: it returns what it
/// saw and the test checks it.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Runs `operation`, and every child task it starts (a live server's connections and handlers
/// among them), on threads of their own rather than the cooperative pool: a live server in a test
/// answers however busy the pool is with the other tests. (Task executors need macOS 15; on an
/// older Mac the operation runs on the pool as before.)
public func onOwnThreads<T, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws(Failure) -> T
) async throws(Failure) -> T {
    if #available(macOS 15.0, iOS 18.0, *) {
        return try await withTaskExecutorPreference(
            OwnThreadsExecutor.shared, isolation: isolation, operation: operation)
    }
    return try await operation()
}

/// A task executor over a few threads of its own.
///
/// `@unchecked Sendable`: `jobs` is read and written only while `condition` is locked.
@available(macOS 15.0, iOS 18.0, *)
public final class OwnThreadsExecutor: TaskExecutor, @unchecked Sendable {
    /// Shared by every test in the process; its threads live as long as the process.
    public static let shared = OwnThreadsExecutor(threads: 4)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "own-threads-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func work() {
        while true {
            let job = condition.withLock { () -> UnownedJob in
                while next == jobs.count { condition.wait() }
                let job = jobs[next]
                next += 1
                if next == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    next = 0
                }
                return job
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
