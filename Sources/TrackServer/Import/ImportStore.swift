public import BackgroundCore

/// What an import needs of a store beyond ``SampleStore``: its checkpoints, and a batch of rows
/// committed with the checkpoint in one transaction. Both stores conform (contract tests:
/// `ImportStoreContract`).
public protocol ImportStore: Sendable {
    /// The device's checkpoint for the file, `nil` if it was never imported into it.
    func importCheckpoint(device: String, fingerprint: String) async throws -> ImportCheckpoint?
    /// In one transaction: stores `samples` (a key the device already has is a duplicate, not an
    /// error), adds them to the device's sample count, and saves `checkpoint` with this batch's
    /// added and duplicate rows added to its counts. When it throws, nothing was written.
    /// - Returns: the rows added.
    /// - Throws: ``TrackStoreError/unknownDevice(_:)`` when no active device has that name.
    func commitImport(_ samples: [TrackSample], device: String, checkpoint: ImportCheckpoint, at now: Instant)
        async throws -> Int
}
