import BackgroundCore
import TrackServer

/// Runs a pipeline over bytes in chunks of a given size, with or without a store.
struct ImportHarness {
    static let now = Instant(milliseconds: 1_735_689_600_000)  // 2025-01-01

    struct Result {
        var samples: [TrackSample]
        var problems: [ImportProblem]
        var failure: ImportFailure?
        var checkpoint: ImportCheckpoint
        var formatName: String
    }

    /// Reads `bytes` fed `chunk` bytes at a time, without storing: every batch's samples collected.
    static func read(_ bytes: [UInt8], format: ImportFormat? = nil, chunk: Int = 4096) -> Result {
        let format = format ?? ImportFormat.detect(head: bytes.prefix(64)) ?? .json
        var pipeline = ImportPipeline(format: format, fingerprint: "test", now: now, batchSize: 1000)
        var samples: [TrackSample] = []
        var problems: [ImportProblem] = []
        var start = 0
        while start < bytes.count, pipeline.failure == nil {
            let end = min(bytes.count, start + chunk)
            samples += bytes[start..<end].withUnsafeBufferPointer { pipeline.feed($0) }.flatMap(\.samples)
            problems += pipeline.takeProblems()
            start = end
        }
        samples += pipeline.finish().flatMap(\.samples)
        let failure = pipeline.failure
        problems += pipeline.takeProblems()
        return Result(
            samples: samples, problems: problems, failure: failure, checkpoint: pipeline.checkpoint,
            formatName: pipeline.formatName)
    }

    static func read(_ text: String, format: ImportFormat? = nil, chunk: Int = 4096) -> Result {
        read(Array(text.utf8), format: format, chunk: chunk)
    }

    /// Imports `bytes` into `store` as the CLI does, stopping after `stopAfterBatches` commits when
    /// given (a kill: nothing after the last commit happens).
    @discardableResult
    static func importInto(
        _ store: any ImportStore, device: String, bytes: [UInt8], fingerprint: String = "file", batchSize: Int = 7,
        stopAfterBatches: Int? = nil, resume: Bool = true
    ) async throws -> ImportCheckpoint {
        let format = ImportFormat.detect(head: bytes.prefix(64)) ?? .json
        let previous = resume ? try await store.importCheckpoint(device: device, fingerprint: fingerprint) : nil
        var pipeline = ImportPipeline(
            format: format, fingerprint: fingerprint, now: now, resume: previous, batchSize: batchSize)
        var committed = 0
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 100)
            var batches = bytes[start..<end].withUnsafeBufferPointer { pipeline.feed($0) }
            if let stop = stopAfterBatches {
                batches = Array(batches.prefix(max(0, stop - committed)))
            }
            _ = try await pipeline.commit(batches, to: store, device: device)
            committed += batches.count
            if let stop = stopAfterBatches, committed >= stop { return pipeline.checkpoint }
            start = end
        }
        _ = try await pipeline.commit(pipeline.finish(), to: store, device: device)
        return pipeline.checkpoint
    }
}
