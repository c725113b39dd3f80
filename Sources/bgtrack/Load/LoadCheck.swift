import BackgroundCore
import LoadGenerator
import TrackServer

/// The end of a load run: the store read back, device by device, against what was acknowledged.
///
/// A device's samples have distinct times on a grid (`firstSampleTime + i·step`) and its first
/// `acknowledged` were acknowledged, so two counts per device are enough, with no row read:
/// - lost: acknowledged times with no row (acknowledged minus distinct times in that range);
/// - duplicated: rows beyond one per time, anywhere;
/// - unexpected: distinct times outside the acknowledged range (stored but never acknowledged:
///   a request whose answer was lost, only after an error).
struct LoadCheck: Sendable, Encodable {
    struct Device: Sendable, Encodable, Hashable {
        var name: String
        var acknowledged: Int
        var stored: Int
        var lost: Int
        var duplicated: Int
        var unexpected: Int

        var isClean: Bool { lost == 0 && duplicated == 0 && unexpected == 0 }
    }

    var acknowledged = 0
    var stored = 0
    var lost = 0
    var duplicated = 0
    var unexpected = 0
    /// Devices where something is wrong, in device order.
    var problems: [Device] = []

    var isClean: Bool { lost == 0 && duplicated == 0 && unexpected == 0 }

    /// Reads the store for every device of `result`, a few devices at a time.
    static func run(store: any TrackStore, plan: LoadPlan, result: LoadResult) async throws -> LoadCheck {
        var check = LoadCheck()
        var devices: [Int: Device] = [:]
        try await withThrowingTaskGroup(of: (Int, Device).self) { group in
            var next = 0
            func add() {
                guard next < result.devices.count else { return }
                let tally = result.devices[next]
                let index = next
                group.addTask { (index, try await LoadCheck.device(tally, store: store, plan: plan)) }
                next += 1
            }
            for _ in 0..<8 { add() }
            while let (index, device) = try await group.next() {
                devices[index] = device
                add()
            }
        }
        for index in devices.keys.sorted() {
            guard let device = devices[index] else { continue }
            check.acknowledged += device.acknowledged
            check.stored += device.stored
            check.lost += device.lost
            check.duplicated += device.duplicated
            check.unexpected += device.unexpected
            if !device.isClean { check.problems.append(device) }
        }
        return check
    }

    static func device(_ tally: DeviceTally, store: any TrackStore, plan: LoadPlan) async throws -> Device {
        let first = Instant(milliseconds: plan.firstSampleTime)
        // Every row of the device, whatever its time (a year beyond its grid is far enough: the
        // server refuses samples more than a day ahead).
        let all = try await store.sampleTally(
            device: tally.device.name, from: .epoch, to: Instant(milliseconds: plan.firstSampleTime + 400 * 86_400_000))
        let acknowledged = try await store.sampleTally(
            device: tally.device.name, from: first,
            to: Instant(milliseconds: plan.firstSampleTime + Int64(tally.acknowledged) * plan.protocol.step))
        return Device(
            name: tally.device.name, acknowledged: tally.acknowledged, stored: all.rows,
            lost: tally.acknowledged - acknowledged.distinctTimes, duplicated: all.rows - all.distinctTimes,
            unexpected: all.distinctTimes - acknowledged.distinctTimes)
    }
}
