import BackgroundCore
import Foundation
import LocationLog

/// The track server as the simulated phone sees it: stores each sample once by id, answers per
/// sample like `POST /v1/batches` (refusing what the real server refuses: the same sample rules,
/// `Sample.check(receivedAt:)`, on the simulation's clock), refuses a revoked device with 401 and
/// a batch naming another device than the token's with 403, as `POST /v1/batches` does
/// (docs/protocol.md). The network's outages are the caller's to apply.
struct SimulatedServer: Sendable {
    /// The device the simulated phone's token belongs to.
    static let tokenDevice = "simulated-phone"
    private(set) var stored: [UUID: Int64] = [:]
    /// Reported intervals (sampling gaps and upload delays) by the id the phone minted.
    private(set) var gaps: [UUID: ReportedInterval] = [:]
    var revoked = false

    mutating func receive(_ batch: [Sample], gaps: [WireGap] = [], device: String? = nil, at now: Instant)
        -> UploadOutcome
    {
        if revoked { return .unauthorized(status: 401, message: "device token revoked") }
        if let device, device != Self.tokenDevice {
            return .unauthorized(
                status: 403,
                message: "the batch names device \"\(device.prefix(64))\" but the token belongs to another device")
        }
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
