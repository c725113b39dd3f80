import BackgroundCore
import Foundation
import LocationLog

/// The track server as the simulated phone sees it: stores each sample once by id, answers per
/// sample like `POST /v1/batches` (refusing what the real server refuses: the same sample rules,
/// `Sample.check(receivedAt:)`, on the simulation's clock), and refuses a revoked device with
/// 401. The network's outages are the caller's to apply.
struct SimulatedServer: Sendable {
    private(set) var stored: [UUID: Int64] = [:]
    /// Reported intervals (sampling gaps and upload delays) by the id the phone minted.
    private(set) var gaps: [UUID: ReportedInterval] = [:]
    var revoked = false

    mutating func receive(_ batch: [Sample], gaps: [WireGap] = [], at now: Instant) -> UploadOutcome {
        if revoked { return .unauthorized(status: 401, message: "device token revoked") }
        var acknowledgement = BatchAcknowledgement()
        for gap in gaps {
            guard let id = UUID(uuidString: gap.id) else { continue }
            if let interval = try? gap.interval() { self.gaps[id] = interval }
            acknowledgement.gaps.insert(id)
        }
        for sample in batch {
            do {
                try sample.check(receivedAt: now)
                stored[sample.id] = sample.seq
                acknowledgement.stored.insert(sample.id)
            } catch {
                acknowledgement.rejected[sample.id] = error.description
            }
        }
        return .acknowledged(acknowledgement)
    }
}
