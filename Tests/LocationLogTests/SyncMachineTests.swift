import BackgroundCore
import Foundation
import LocationLog
import Testing

@Suite struct SyncMachineTests {
    let start = Instant(milliseconds: 1_732_240_000_000)

    @Test func nominalBackoffDoublesFrom5sTo30min() {
        let machine = SyncMachine(seed: 1)
        let seconds = (1...12).map { Int(machine.nominalBackoff(failures: $0).seconds) }
        #expect(seconds == [5, 10, 20, 40, 80, 160, 320, 640, 1280, 1800, 1800, 1800])
        #expect(machine.nominalBackoff(failures: 10_000) == .seconds(1800))
    }

    /// Failure after failure: each retry waits between half the nominal delay and the nominal
    /// delay, the same seed gives the same sequence, another seed another one.
    @Test func jitteredBackoffSequenceIsSeededAndBounded() {
        func sequence(seed: UInt64) -> [Int64] {
            var machine = SyncMachine(seed: seed)
            var now = start
            var delays: [Int64] = []
            for _ in 0..<12 {
                _ = machine.handle(.wake(pending: 1, backgroundTimeRemaining: nil), at: now)
                _ = machine.handle(
                    .uploaded(sent: [UUID()], outcome: .networkError(message: "offline"), took: .zero), at: now)
                let retryAt = machine.snapshot.retryAt ?? now
                delays.append((retryAt - now).wholeMilliseconds)
                // Nothing happens before the retry time…
                #expect(
                    machine.handle(.wake(pending: 1, backgroundTimeRemaining: nil), at: retryAt - .seconds(1)) == [])
                now = retryAt
            }
            return delays
        }
        let delays = sequence(seed: 42)
        let nominal = SyncMachine(seed: 0)
        for (index, delay) in delays.enumerated() {
            let limit = nominal.nominalBackoff(failures: index + 1).wholeMilliseconds
            #expect(
                delay >= limit / 2 && delay <= limit, "retry \(index + 1): \(delay) ms not in \(limit / 2)…\(limit)")
        }
        #expect(sequence(seed: 42) == delays)
        #expect(sequence(seed: 43) != delays)
        print("back-off sequence (seed 42, ms): \(delays.map(String.init).joined(separator: ", "))")
    }

    @Test func uploadsWhenIntervalPassedOrBacklogReachesABatch() {
        var machine = SyncMachine(snapshot: SyncSnapshot(lastSuccess: start), seed: 1)
        #expect(machine.handle(.wake(pending: 499, backgroundTimeRemaining: nil), at: start + .seconds(60)) == [])
        #expect(
            machine.handle(.wake(pending: 500, backgroundTimeRemaining: nil), at: start + .seconds(60)) == [
                .upload(limit: 500)
            ])
        var idle = SyncMachine(snapshot: SyncSnapshot(lastSuccess: start), seed: 1)
        #expect(idle.handle(.wake(pending: 3, backgroundTimeRemaining: nil), at: start + .seconds(1799)) == [])
        #expect(idle.nextWake(pending: 3, now: start + .seconds(1799)) == start + .seconds(1800))
        #expect(
            idle.handle(.wake(pending: 3, backgroundTimeRemaining: nil), at: start + .seconds(1800)) == [
                .upload(limit: 500)
            ])
        // One upload at a time.
        #expect(idle.handle(.wake(pending: 900, backgroundTimeRemaining: nil), at: start + .seconds(1801)) == [])
        var empty = SyncMachine(seed: 1)
        #expect(empty.handle(.wake(pending: 0, backgroundTimeRemaining: nil), at: start) == [])
    }

    @Test func noUploadStartsWithLessBackgroundTimeThanItNeeds() {
        var machine = SyncMachine(seed: 1)
        let first = machine.handle(.wake(pending: 10, backgroundTimeRemaining: .seconds(29)), at: start)
        #expect(first.count == 1)
        if case .log(_, let message) = first.first { #expect(message.contains("29 s of background time left")) }
        #expect(machine.handle(.wake(pending: 10, backgroundTimeRemaining: .seconds(20)), at: start) == [])
        #expect(
            machine.handle(.wake(pending: 10, backgroundTimeRemaining: .seconds(30)), at: start) == [
                .upload(limit: 500)
            ])
        // A slow upload (40 s) raises what the next one is assumed to need to 80 s.
        _ = machine.handle(
            .uploaded(sent: [], outcome: .acknowledged(.init()), took: .seconds(40)), at: start + .seconds(40))
        #expect(machine.uploadTimeNeeded == .seconds(80))
    }

    @Test func tooLargeHalvesTheBatchAndSuccessGrowsItBack() {
        var machine = SyncMachine(seed: 1)
        var sizes: [Int] = []
        for _ in 0..<3 {
            let actions = machine.handle(.wake(pending: 1000, backgroundTimeRemaining: nil), at: start)
            guard case .upload(let limit) = actions.first else { break }
            sizes.append(limit)
            let sent = Set((0..<limit).map { _ in UUID() })
            _ = machine.handle(.uploaded(sent: sent, outcome: .tooLarge, took: .zero), at: start)
        }
        #expect(sizes == [500, 250, 125])
        #expect(machine.snapshot.retryAt == nil, "413 retries at once with a smaller batch, no back-off")
        #expect(machine.batchSize == 62)
        _ = machine.handle(.wake(pending: 1000, backgroundTimeRemaining: nil), at: start)
        _ = machine.handle(.uploaded(sent: [], outcome: .acknowledged(.init()), took: .zero), at: start)
        #expect(machine.batchSize == 124)
        _ = machine.handle(.wake(pending: 1000, backgroundTimeRemaining: nil), at: start)
        _ = machine.handle(.uploaded(sent: [], outcome: .acknowledged(.init()), took: .zero), at: start)
        #expect(machine.batchSize == 248)
    }

    @Test func unauthorizedHoldsAndNotifiesUntilCredentialsChange() {
        var machine = SyncMachine(seed: 1)
        _ = machine.handle(.wake(pending: 5, backgroundTimeRemaining: nil), at: start)
        let actions = machine.handle(
            .uploaded(sent: [UUID()], outcome: .unauthorized(status: 401, message: "token revoked"), took: .zero),
            at: start)
        #expect(actions.contains(.notifyUser(.tokenRefused(status: 401))))
        #expect(!actions.contains { if case .acknowledge = $0 { return true } else { return false } })
        #expect(machine.handle(.wake(pending: 5000, backgroundTimeRemaining: nil), at: start + .seconds(86_400)) == [])
        #expect(machine.nextWake(pending: 5000, now: start) == nil)
        _ = machine.handle(.credentialsChanged, at: start + .seconds(86_400))
        #expect(
            machine.handle(.wake(pending: 5, backgroundTimeRemaining: nil), at: start + .seconds(86_400)) == [
                .upload(limit: 500)
            ])
    }

    @Test func aClockSetBackDoesNotBlockUploads() {
        var machine = SyncMachine(
            snapshot: SyncSnapshot(lastSuccess: start + .seconds(7200), retryAt: start + .seconds(86_400)), seed: 1)
        #expect(machine.handle(.wake(pending: 1, backgroundTimeRemaining: nil), at: start) == [.upload(limit: 500)])
    }

    @Test func rateLimitHonoursRetryAfter() {
        var machine = SyncMachine(seed: 1)
        _ = machine.handle(.wake(pending: 5, backgroundTimeRemaining: nil), at: start)
        _ = machine.handle(
            .uploaded(sent: [UUID()], outcome: .rateLimited(retryAfter: .seconds(120)), took: .zero), at: start)
        #expect(machine.snapshot.retryAt == start + .seconds(120))
        #expect(machine.snapshot.consecutiveFailures == 1)
    }

    @Test func acknowledgementOnlyTouchesIdsThatWereSent() {
        var machine = SyncMachine(seed: 1)
        let sent = [UUID(), UUID(), UUID()]
        let stranger = UUID()
        _ = machine.handle(.wake(pending: 3, backgroundTimeRemaining: nil), at: start)
        let ack = BatchAcknowledgement(
            stored: [sent[0], stranger], rejected: [sent[1]: "latitude 91 is outside -90…90"])
        let actions = machine.handle(.uploaded(sent: Set(sent), outcome: .acknowledged(ack), took: .zero), at: start)
        #expect(
            actions.first == .acknowledge(delete: [sent[0]], quarantine: [sent[1]: "latitude 91 is outside -90…90"]))
    }

    /// A `200` that names none of the samples sent (an `{"error": …}` body read leniently, empty
    /// arrays, or only ids of another batch) made no progress, so it is no success: it must not
    /// reset the back-off or restart the upload interval.
    @Test func anAnswerThatAcknowledgesNoneOfTheBatchBacksOff() {
        let earlier = start - .seconds(3600)
        for ack in [BatchAcknowledgement(), BatchAcknowledgement(stored: [UUID()], rejected: [UUID(): "unknown"])] {
            var machine = SyncMachine(snapshot: SyncSnapshot(lastSuccess: earlier, consecutiveFailures: 2), seed: 1)
            _ = machine.handle(.wake(pending: 600, backgroundTimeRemaining: nil), at: start)
            let actions = machine.handle(
                .uploaded(sent: [UUID(), UUID()], outcome: .acknowledged(ack), took: .zero), at: start)
            #expect(!actions.contains { if case .acknowledge = $0 { return true } else { return false } })
            #expect(machine.snapshot.lastSuccess == earlier)
            #expect(machine.snapshot.consecutiveFailures == 3)
            #expect((machine.snapshot.retryAt ?? start) > start)
            #expect(machine.handle(.wake(pending: 600, backgroundTimeRemaining: nil), at: start) == [])
        }
    }

    /// `413` halves what was sent: a 40-sample batch answered 413 is retried with 20 samples, not
    /// re-sent whole because the configured size (500) went down to 250.
    @Test func tooLargeHalvesTheBatchThatWasSent() {
        var machine = SyncMachine(seed: 1)
        _ = machine.handle(.wake(pending: 40, backgroundTimeRemaining: nil), at: start)
        _ = machine.handle(
            .uploaded(sent: Set((0..<40).map { _ in UUID() }), outcome: .tooLarge, took: .zero), at: start)
        #expect(machine.batchSize == 20)
        #expect(machine.handle(.wake(pending: 40, backgroundTimeRemaining: nil), at: start) == [.upload(limit: 20)])
        // A single sample that is still too large cannot be halved: back off instead of a hot loop.
        var single = SyncMachine(seed: 1)
        _ = single.handle(.wake(pending: 1, backgroundTimeRemaining: nil), at: start)
        _ = single.handle(.uploaded(sent: [UUID()], outcome: .tooLarge, took: .zero), at: start)
        #expect(single.snapshot.consecutiveFailures == 1 && (single.snapshot.retryAt ?? start) > start)
    }

    /// A batch size below 1 (an unvalidated configuration or a saved state) asked for empty
    /// batches: nothing was ever sent, yet each empty "upload" counted as a success. And a saved
    /// failure count at Int.max trapped on the next failure.
    @Test func degenerateSizesAndCountsStillUpload() {
        var zero = SyncMachine(configuration: .init(batchSize: 0), seed: 1)
        #expect(zero.handle(.wake(pending: 5, backgroundTimeRemaining: nil), at: start) == [.upload(limit: 1)])
        var saved = SyncMachine(snapshot: SyncSnapshot(consecutiveFailures: .max, batchSize: -4), seed: 1)
        #expect(saved.handle(.wake(pending: 5, backgroundTimeRemaining: nil), at: start) == [.upload(limit: 1)])
        _ = saved.handle(.uploaded(sent: [UUID()], outcome: .networkError(message: "offline"), took: .zero), at: start)
        #expect(saved.snapshot.consecutiveFailures == .max)
        #expect((saved.snapshot.retryAt ?? start) > start)
    }

    /// An id listed both as stored and as rejected is no clear acknowledgement: it stays pending
    /// (before, it was deleted, though the server may have refused it); the rest of the answer
    /// still applies.
    @Test func anIdBothStoredAndRejectedStaysPending() {
        var machine = SyncMachine(seed: 1)
        let sent = [UUID(), UUID(), UUID()]
        _ = machine.handle(.wake(pending: 3, backgroundTimeRemaining: nil), at: start)
        let ack = BatchAcknowledgement(
            stored: [sent[0], sent[1]], rejected: [sent[1]: "latitude 91 is outside -90…90", sent[2]: "speed -1"])
        let actions = machine.handle(.uploaded(sent: Set(sent), outcome: .acknowledged(ack), took: .zero), at: start)
        #expect(actions.first == .acknowledge(delete: [sent[0]], quarantine: [sent[2]: "speed -1"]))
        #expect(
            actions.contains {
                if case .log(_, let line) = $0 { return line.contains("1 both stored and rejected (kept") }
                return false
            })
    }
}
