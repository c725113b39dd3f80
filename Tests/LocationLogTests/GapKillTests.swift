import BackgroundCore
import Foundation
import LocationLog
import Testing

/// Gap intervals survive SIGKILL between being recorded and being acknowledged, and an
/// acknowledgement that returned is never undone (issue 24 item 3).
@Suite("Gap intervals: SIGKILL between store and acknowledgement")
struct GapKillTests {
    @Test func everyRecordedGapIsPendingUntilItsAcknowledgementReturned() async throws {
        let writer = try StoreKillTests.writerPath()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gap-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        var random = SeededRandom(seed: 24_003)
        var recorded = Set<Int64>()
        var acknowledged = Set<Int64>()
        // Gaps whose acknowledgement had begun when the writer was killed: pending or gone.
        var acknowledging = Set<Int64>()
        for round in 0..<30 {
            let lines = try await Self.run(writer, path: path, afterLines: Int.random(in: 1...12, using: &random))
            for line in lines {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let end = Int64(parts[1]) else { continue }
                switch parts[0] {
                case "G": recorded.insert(end)
                case "a": acknowledging.insert(end)
                case "A": acknowledged.insert(end)
                default: break
                }
            }
            let (store, _) = try LocationStore.open(path: path, now: .epoch)
            let pending = Set(try store.pendingGaps(limit: 100_000).map(\.interval.end.milliseconds))
            let lost = recorded.subtracting(acknowledged).subtracting(acknowledging).subtracting(pending)
            acknowledged.formUnion(acknowledging.subtracting(pending))
            acknowledging.removeAll()
            #expect(lost.isEmpty, "round \(round): \(lost.count) recorded gaps lost after SIGKILL")
            #expect(pending.isDisjoint(with: acknowledged), "round \(round): an acknowledged gap came back")
            #expect(try store.pendingGaps(limit: 100_000).allSatisfy { $0.interval.reason == .suspended })
        }
        #expect(!recorded.isEmpty && !acknowledged.isEmpty)
    }

    /// Runs the writer in gap mode until `afterLines` lines arrived, SIGKILLs it, and returns
    /// every complete line it wrote.
    static func run(_ writer: String, path: String, afterLines: Int) async throws -> [String] {
        let text = try await StoreKillTests.runAndKill(
            writer, arguments: [path, "processCrash", "gaps"], afterLines: afterLines)
        // A line is complete only with its newline (each is one atomic write(2)).
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
