import BackgroundCore
import Foundation

/// Each device's local time: the zones it reported, the operator's zone for it, the server's
/// `--time-zone` where neither says. What the routes that write local times hold.
struct LocalTimes: Sendable {
    let store: any TimeZoneStore
    let serverDefault: TimeZone

    func callAsFunction(device: String) async throws -> LocalTime {
        LocalTime(try await store.timeZones(device: device), serverDefault: serverDefault)
    }
}

/// The zone each device last reported to this server, so a batch in the same zone as the last
/// costs no store access. Lock-guarded (never held across an `await`), hence `@unchecked Sendable`.
public final class ZoneCache: @unchecked Sendable {
    private let lock = NSLock()
    private var zones: [String: String] = [:]

    public init() {}

    /// Whether `zone` differs from the one last noted for the device; notes it.
    func changed(device: String, zone: String) -> Bool {
        lock.withLock {
            guard zones[device] != zone else { return false }
            if zones.count >= 100_000 { zones.removeAll() }
            zones[device] = zone
            return true
        }
    }

    /// Forgets the device's zone (its store write failed: the next batch tries again).
    func forget(device: String) {
        lock.withLock { _ = zones.removeValue(forKey: device) }
    }
}
