import BackgroundCore
import Crypto
import Foundation
import TrackServer

/// One file's import: reads it in chunks, feeds the pipeline, commits its batches, draws the
/// progress and prints the problems and the summary.
struct ImportFile {
    static let chunkSize = 1 << 20

    var path: String
    var device: String
    var format: ImportFormat?
    var batchSize: Int
    var restart: Bool
    var killAfterBatches: Int?

    func run(_ store: any ImportStore) async throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportFailure("cannot open the file; check the path and its permissions")
        }
        defer { try? handle.close() }
        let size = Int64(try handle.seekToEnd())
        try handle.seek(toOffset: 0)
        let head = try handle.read(upToCount: 4096) ?? Data()
        try handle.seek(toOffset: 0)
        guard let format = format ?? ImportFormat.detect(head: head) else {
            throw ImportFailure(ImportFormat.undetected(head: head, hint: "--format"))
        }
        let clock = ContinuousClock()
        let hashing = clock.now
        let fingerprint = try ImportFingerprint.of(handle)
        let hashed = seconds(clock.now - hashing)
        let previous = restart ? nil : try await store.importCheckpoint(device: device, fingerprint: fingerprint)
        let started = clock.now
        var pipeline = ImportPipeline(
            format: format, fingerprint: fingerprint, now: ServerClock.system.now, resume: previous,
            batchSize: batchSize)
        if let previous, !previous.finished {
            print(
                "\(path): resuming after record \(previous.records) (byte \(previous.bytes)) of an import that stopped; "
                    + "--restart reads it all again")
        }
        let progress = ProgressBar(label: (path as NSString).lastPathComponent)
        var read: Int64 = 0
        let resumedPoints = pipeline.checkpoint.points
        var committed = 0
        // What this run reads, hashed again: the file must still be the one the fingerprint named.
        var streamed = SHA256()
        while pipeline.failure == nil, let data = try handle.read(upToCount: Self.chunkSize), !data.isEmpty {
            streamed.update(data: data)
            let batches = data.withUnsafeBytes { raw in pipeline.feed(raw.assumingMemoryBound(to: UInt8.self)) }
            report(pipeline.takeProblems())
            for batch in batches {
                _ = try await pipeline.commit([batch], to: store, device: device)
                committed += 1
                if let killAfterBatches, committed >= killAfterBatches { kill(getpid(), SIGKILL) }
            }
            read += Int64(data.count)
            let elapsed = max(1e-3, seconds(clock.now - started))
            progress.update(
                Int(read >> 10), of: Int(size >> 10),
                note:
                    "KiB, \(pipeline.checkpoint.points) points, \(Int(Double(pipeline.checkpoint.points - resumedPoints) / elapsed))/s"
            )
        }
        progress.finish()
        if pipeline.failure == nil, ImportFingerprint.text(streamed) != fingerprint {
            throw ImportFailure(
                "the file changed while it was imported (its SHA-256 is no longer the one it started with); "
                    + "the points read so far are stored and the import is not marked finished: run it again "
                    + "once the file is complete")
        }
        _ = try await pipeline.commit(pipeline.finish(), to: store, device: device)
        report(pipeline.takeProblems())
        if let failure = pipeline.failure { throw failure }
        let elapsed = seconds(clock.now - started)
        let counts = pipeline.checkpoint
        print(
            """
            \(path): \(pipeline.formatName), \(size) bytes
              points      \(counts.points)
              added       \(counts.added)
              duplicates  \(counts.duplicates)  (already stored for \(device))
              rejected    \(counts.rejected)
              time        \(String(format: "%.1f", elapsed)) s, \(Int(Double(counts.points - resumedPoints) / max(elapsed, 1e-3))) points/s
              identified  by SHA-256 in \(String(format: "%.1f", hashed)) s before reading (\(Int(Double(size) / 1e6 / max(hashed, 1e-3))) MB/s)
            """)
    }

    private func report(_ problems: [ImportProblem]) {
        guard !problems.isEmpty else { return }
        let text = problems.map { "\(path): \($0.message)\n" }.joined()
        FileHandle.standardError.write(Data(text.utf8))
    }
}

private func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
}
