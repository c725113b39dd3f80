import BackgroundCore
import Foundation
import LocationLog

/// The track server as the simulated phone sees it: stores each sample once by id, answers per
/// sample like `POST /v1/batches`, and refuses a revoked device with 401. The network's outages
/// are the caller's to apply.
struct SimulatedServer: Sendable {
    private(set) var stored: [UUID: Int64] = [:]
    var revoked = false

    mutating func receive(_ batch: [Sample]) -> UploadOutcome {
        if revoked { return .unauthorized(status: 401, message: "device token revoked") }
        var acknowledgement = BatchAcknowledgement()
        for sample in batch {
            do {
                try sample.validate()
                stored[sample.id] = sample.seq
                acknowledgement.stored.insert(sample.id)
            } catch {
                acknowledgement.rejected[sample.id] = error.description
            }
        }
        return .acknowledged(acknowledgement)
    }
}
