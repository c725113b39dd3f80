import BackgroundCore
import Foundation
import LocationLog

/// The samples ingest routes submitted to the timeline and no update has taken yet, per device,
/// under a lock (never held across an `await`), and whether a task is draining them.
/// ``TimelineUpdater/submit(_:device:)`` adds without a thread hop; one drain task at a time takes.
///
/// Drains are coalesced under load: a drain that would start within `window` of the previous
/// one's end starts when the window is over, and takes everything submitted meanwhile. Starting
/// a drain wakes a thread of the concurrency pool, and under single-point load (a commit every
/// few hundred microseconds, each leaving a sample or two) one drain per commit cost the commit's
/// thread a preemption and the pool a wake and a sleep per commit: 18-27 % of the throughput
/// (BENCHMARKS.md, issue 23 item 5). An idle server's first sample is drained at once.
final class TimelineInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [String: [TrackSample]] = [:]
    /// Devices in arrival order of their first waiting batch, so no device waits behind another.
    private var order: [String] = []
    private var draining = false
    private var waitingCount = 0
    private var lastDrainEnded: Instant?
    private let window: Duration

    /// What ``add(_:device:at:)`` asks of its caller.
    enum Start: Equatable {
        /// A drain is under way or scheduled: it takes these too.
        case running
        /// Start a drain now.
        case now
        /// Start a drain after this delay (the rest of the coalescing window).
        case after(Duration)
    }

    init(window: Duration = .zero) {
        self.window = window
    }

    /// Samples waiting, all devices together.
    var count: Int { lock.withLock { waitingCount } }

    /// Adds `samples`, and says whether the caller must start a drain, now or after a delay.
    func add(_ samples: [TrackSample], device: String, at now: Instant) -> Start {
        lock.withLock {
            if waiting[device] == nil { order.append(device) }
            waiting[device, default: []] += samples
            waitingCount += samples.count
            if draining { return .running }
            draining = true
            guard let ended = lastDrainEnded, now - ended < window else { return .now }
            // A clock set back (the wall clock's, by NTP) waits the window at most.
            return .after(min(window, window - (now - ended)))
        }
    }

    /// The oldest waiting device's samples, or `nil` (and the drain task ends) when none wait.
    func next(at now: Instant) -> (device: String, samples: [TrackSample])? {
        lock.withLock {
            while !order.isEmpty {
                let device = order.removeFirst()
                if let samples = waiting.removeValue(forKey: device) {
                    waitingCount -= samples.count
                    return (device, samples)
                }
            }
            draining = false
            lastDrainEnded = now
            return nil
        }
    }

    /// Everything waiting for `device`, taken now (a read catching up).
    func take(device: String) -> [TrackSample]? {
        lock.withLock {
            let samples = waiting.removeValue(forKey: device)
            waitingCount -= samples?.count ?? 0
            return samples
        }
    }

}
