public import BackgroundCore
import LocationLog

/// One file's import as a state machine (sans-IO): fed the file's bytes chunk by chunk, it answers
/// the batches to commit, each with the checkpoint that goes into the same transaction; the caller
/// reads (a file, a request body) and commits (``ImportStore/commitImport(_:device:checkpoint:at:)``).
///
/// Every point passes ``SampleRules``, the checks every ingest protocol uses; a bad record or point
/// becomes an ``ImportProblem`` naming its position and the rest go on.
public struct ImportPipeline {
    /// One transaction's worth: large, so the commit's fixed cost (an fsync) is spread over many rows.
    public static let defaultBatchSize = 50_000

    private var reader: any ImportReader
    private let rules = SampleRules()
    private let now: Instant
    private let batchSize: Int
    private var pending: [TrackSample] = []
    /// The counts so far, committed or pending; `records`/`bytes` move only at a batch's end.
    public private(set) var checkpoint: ImportCheckpoint
    private var lastPosition: ImportPosition?
    private var problems: [ImportProblem] = []

    /// - Parameters:
    ///   - resume: a checkpoint of an unfinished import of the same file: its records are skipped
    ///     unread and its counts continued.
    public init(
        format: ImportFormat, fingerprint: String, now: Instant, resume: ImportCheckpoint? = nil,
        batchSize: Int = defaultBatchSize
    ) {
        reader = format.makeReader()
        self.now = now
        self.batchSize = max(1, batchSize)
        if let resume, !resume.finished, resume.fingerprint == fingerprint {
            checkpoint = resume
            reader.skipBefore = resume.records
        } else {
            checkpoint = ImportCheckpoint(fingerprint: fingerprint, format: format.rawValue)
        }
    }

    /// The batches `chunk` completed. When the file's structure broke in it, the last of them holds
    /// every point found before the break and ``failure`` is set: commit them, then report it.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [ImportBatch] {
        guard failure == nil else { return [] }
        return take(reader.feed(chunk), finished: false)
    }

    /// The end of the input: the last batch (possibly empty), its checkpoint finished unless the
    /// file ended mid-structure (then ``failure`` says so).
    public mutating func finish() -> [ImportBatch] {
        guard failure == nil else { return [] }
        return take(reader.finish(), finished: true)
    }

    /// The input stopped short of being the file (its digest was not the one declared): the batch
    /// of the records its bytes completed, unfinished. What only the end of the input would decide
    /// (a last record without its end) is left undecided, so a later try that resumes from this
    /// checkpoint reads it whole.
    public mutating func stop() -> [ImportBatch] {
        guard failure == nil else { return [] }
        return [cut(after: lastPosition, finished: false)]
    }

    /// Why the file could not be read to its end (truncated, not the format): the points before it
    /// are in the batches already answered.
    public private(set) var failure: ImportFailure?

    /// The problems found since the last call, in file order.
    public mutating func takeProblems() -> [ImportProblem] {
        defer { problems.removeAll(keepingCapacity: true) }
        return problems
    }

    /// The format the file turned out to be ("Google Takeout Records.json", "GPX", …).
    public var formatName: String { reader.formatName }

    private mutating func take(_ records: [ImportRecord], finished: Bool) -> [ImportBatch] {
        var batches: [ImportBatch] = []
        for record in records {
            lastPosition = record.position
            switch record.outcome {
            case .failure(let problem):
                report(record.position, problem.message)
            case .success(let samples):
                for note in record.notes { report(record.position, note, refused: false) }
                for sample in samples { check(sample, at: record.position) }
            }
            if pending.count >= batchSize { batches.append(cut(after: record.position, finished: false)) }
        }
        if let failure = reader.failure {
            self.failure = failure
            batches.append(cut(after: lastPosition, finished: false))
        } else if finished {
            batches.append(cut(after: lastPosition, finished: true))
        }
        return batches
    }

    /// Keeps `sample` if it passes the rules. A measurement out of its range (any of
    /// `SampleValues.Field.measurements`) is left out with a note and the point kept: an import's
    /// point is history that exists nowhere else, and its position and time are what a track needs.
    private mutating func check(_ sample: TrackSample, at position: ImportPosition) {
        var sample = sample
        while true {
            do throws(SampleProblem) {
                try rules.check(sample, label: position.description, now: now)
                pending.append(sample)
                checkpoint.points += 1
                return
            } catch {
                if let code = error.rule,
                    let field = SampleValues.Field.measurements.first(where: {
                        SampleRuleSet.rule(for: $0)?.code == code
                    })
                {
                    sample.values.setMeasurement(field, nil)
                    problems.append(
                        ImportProblem(position: position, message: error.message + "; the point is kept without it"))
                    continue
                }
                switch error.rule {
                case .tooEarly?:
                    checkpoint.rejected += 1
                    problems.append(
                        ImportProblem(
                            position: position,
                            message: "\(position): time \(sample.time.iso8601) is before 2000-01-01, the earliest "
                                + "time the server keeps"))
                    return
                case .tooFarAhead?:
                    checkpoint.rejected += 1
                    problems.append(
                        ImportProblem(
                            position: position,
                            message: "\(position): time \(sample.time.iso8601) is more than a day after the "
                                + "server's clock (\(now.iso8601)); the file's times, or the server's clock, are wrong")
                    )
                    return
                default:
                    checkpoint.rejected += 1
                    problems.append(ImportProblem(position: position, message: error.message))
                    return
                }
            }
        }
    }

    private mutating func report(_ position: ImportPosition, _ message: String, refused: Bool = true) {
        if refused { checkpoint.rejected += 1 }
        let joined = ["is ", "has ", "must ", "its "].contains { message.hasPrefix($0) }
        problems.append(ImportProblem(position: position, message: "\(position)\(joined ? " " : ": ")\(message)"))
    }

    private mutating func cut(after position: ImportPosition?, finished: Bool) -> ImportBatch {
        if let position {
            checkpoint.records = max(checkpoint.records, position.record + 1)
            checkpoint.bytes = max(checkpoint.bytes, position.byte)
        }
        checkpoint.finished = finished
        let batch = ImportBatch(samples: pending, checkpoint: checkpoint)
        pending.removeAll(keepingCapacity: true)
        return batch
    }

    /// Applies a committed batch's result to the counts (the store adds its rows to the saved
    /// checkpoint the same way).
    public mutating func committed(_ batch: ImportBatch, added: Int) {
        checkpoint.added += added
        checkpoint.duplicates += batch.samples.count - added
    }
}

/// Rows to commit with the checkpoint they reach.
public struct ImportBatch: Sendable {
    public var samples: [TrackSample]
    /// Its `added` and `duplicates` count the earlier batches only.
    public var checkpoint: ImportCheckpoint
}

/// A record or point that was not imported, and where and why.
public struct ImportProblem: Hashable, Sendable, CustomStringConvertible {
    public var position: ImportPosition
    /// "record 12,345 at byte 1,234,567: field "lat" latitude 91.2 is outside -90…90".
    public var message: String
    public var description: String { message }
}

extension ImportPipeline {
    /// Commits `batches` in order, each with the counts of the batches committed before it.
    /// - Returns: the rows added.
    public mutating func commit(_ batches: [ImportBatch], to store: any ImportStore, device: String) async throws -> Int
    {
        var total = 0
        for var batch in batches {
            batch.checkpoint.added = checkpoint.added
            batch.checkpoint.duplicates = checkpoint.duplicates
            let added = try await store.commitImport(
                batch.samples, device: device, checkpoint: batch.checkpoint, at: now)
            committed(batch, added: added)
            total += added
        }
        return total
    }
}
