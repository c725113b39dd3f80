package import BackgroundCore
import Dispatch
import Foundation

/// The shell's time: what `now` is, and named one-shot timers (the machines' `TimerID`s).
///
/// Live: the wall clock and `DispatchSourceTimer`s on the main queue (seed 003's advice over
/// `NSTimer`). Tests use a virtual clock they advance by hand.
@MainActor
package protocol ShellClock: AnyObject {
    var now: Instant { get }
    /// Fires `fire` at `instant` (at once if it is past), replacing any timer of the same id.
    func schedule(_ id: TimerID, at instant: Instant, _ fire: @escaping @MainActor @Sendable () -> Void)
    func cancel(_ id: TimerID)
    /// Runs `work` off the main thread (a call that may block, such as
    /// `CLLocationManager.locationServicesEnabled()`), then `then` with its result on the main actor.
    func offMain(_ work: @escaping @Sendable () -> Bool, then: @escaping @MainActor @Sendable (Bool) -> Void)
}

/// Runs `work` on a thread of its own and waits for it: what a simulated or virtual clock's
/// `offMain` does, so the work really runs off the main thread and the result is there at once.
package func onAnotherThread(_ work: @escaping @Sendable () -> Bool) -> Bool {
    final class Result: @unchecked Sendable {
        // `value` is written by the thread before it signals `done` and read after the wait:
        // the semaphore orders the two.
        var value = false
        let done = DispatchSemaphore(value: 0)
    }
    let result = Result()
    let thread = Thread {
        result.value = work()
        result.done.signal()
    }
    thread.start()
    result.done.wait()
    return result.value
}

/// The wall clock, with timers as `DispatchSourceTimer`s on the main queue.
@MainActor
final class WallClock: ShellClock {
    private var timers: [TimerID: any DispatchSourceTimer] = [:]

    var now: Instant { Instant(seconds: Date().timeIntervalSince1970) }

    func schedule(_ id: TimerID, at instant: Instant, _ fire: @escaping @MainActor @Sendable () -> Void) {
        cancel(id)
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let delay = max(0, (instant - now).wholeMilliseconds)
        timer.schedule(deadline: .now() + .milliseconds(Int(clamping: delay)))
        timer.setEventHandler { MainActor.assumeIsolated { fire() } }
        timers[id] = timer
        timer.resume()
    }

    func cancel(_ id: TimerID) {
        timers.removeValue(forKey: id)?.cancel()
    }

    func offMain(_ work: @escaping @Sendable () -> Bool, then: @escaping @MainActor @Sendable (Bool) -> Void) {
        DispatchQueue.global(qos: .utility).async {
            let value = work()
            DispatchQueue.main.async { MainActor.assumeIsolated { then(value) } }
        }
    }
}
