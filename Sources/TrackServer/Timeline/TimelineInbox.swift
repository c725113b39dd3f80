import Foundation
import LocationLog

/// The samples ingest routes submitted to the timeline and no update has taken yet, per device,
/// under a lock (never held across an `await`), and whether a task is draining them.
/// ``TimelineUpdater/submit(_:device:)`` adds without a thread hop; one drain task at a time takes.
final class TimelineInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [String: [TrackSample]] = [:]
    /// Devices in arrival order of their first waiting batch, so no device waits behind another.
    private var order: [String] = []
    private var draining = false
    private var waitingCount = 0

    /// Samples waiting, all devices together.
    var count: Int { lock.withLock { waitingCount } }

    /// Adds `samples`; `true` when no task is draining, i.e. the caller must start one.
    func add(_ samples: [TrackSample], device: String) -> Bool {
        lock.withLock {
            if waiting[device] == nil { order.append(device) }
            waiting[device, default: []] += samples
            waitingCount += samples.count
            if draining { return false }
            draining = true
            return true
        }
    }

    /// The oldest waiting device's samples, or `nil` (and the drain task ends) when none wait.
    func next() -> (device: String, samples: [TrackSample])? {
        lock.withLock {
            while !order.isEmpty {
                let device = order.removeFirst()
                if let samples = waiting.removeValue(forKey: device) {
                    waitingCount -= samples.count
                    return (device, samples)
                }
            }
            draining = false
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
