import BackgroundCore
import LocationLog
import TrackServer

/// Every sample the phone created during the demo day, accounted for.
///
/// The phone numbers its samples with a per-device `seq` that never repeats, so the day's samples
/// are exactly `firstSeq ..< nextSeq`. Each must be on the server, still pending on the phone, or
/// quarantined with a reason; anything else is lost. A `seq` the server holds twice is a duplicate.
struct DemoAccounting: Equatable {
    var created: Int
    var onServer: Int
    var pending: Int
    var quarantined: Int
    var lost: [Int64]
    var duplicated: [Int64]

    static func count(
        phone: LocationStore, firstSeq: Int64, server: any TrackStore, device: String, from: Instant, to: Instant
    ) async throws -> DemoAccounting {
        let day = firstSeq..<(try phone.nextSeq())
        let pending = Set(try phone.oldestPending(limit: Int.max).map(\.seq)).filter(day.contains)
        let quarantined = Set(try phone.quarantined().map(\.sample.seq)).filter(day.contains)
        // A day's samples carry that day's times; a margin covers a clock that was set back.
        let rows = try await server.samples(
            device: device, from: from - .seconds(86_400), to: to + .seconds(86_400)
        ).compactMap(\.seq).filter(day.contains)
        var seen: [Int64: Int] = [:]
        for seq in rows { seen[seq, default: 0] += 1 }
        let accounted = Set(seen.keys).union(pending).union(quarantined)
        return DemoAccounting(
            created: day.count, onServer: seen.count, pending: pending.count, quarantined: quarantined.count,
            lost: day.filter { !accounted.contains($0) },
            duplicated: seen.filter { $0.value > 1 }.keys.sorted())
    }
}
