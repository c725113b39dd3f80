import BackgroundCore
import Foundation
import LocationLog
import Testing

/// Issue 37 item 3 on the phone: upload delays are recorded apart from sampling gaps, and a fix too
/// coarse to record (no GPS underground) is its own sampling reason, "no-fix". Virtual time.
@Suite("Gap intervals: upload delays and no fix, on the phone")
struct UploadDelayTests {
    let start = Instant(milliseconds: 1_732_240_000_000)

    func at(_ minutes: Int64) -> Instant { start + .seconds(minutes * 60) }

    func fix(_ minutes: Int64, accuracy: Double = 10, approximate: Bool = false) -> LocationFix {
        LocationFix(
            timestamp: at(minutes), latitude: 31.2304, longitude: 121.4737, horizontalAccuracy: accuracy,
            isApproximate: approximate)
    }

    func coarse(_ store: LocationStore, _ minutes: Int64) throws {
        try store.noteRejectedFix(
            fix(minutes, accuracy: 1204), .tooInaccurate(accuracy: 1204, limit: 100), at: at(minutes))
    }

    @Test func anUploadsOutcomeOpensChangesAndEndsItsDelay() throws {
        let store = try LocationStore.inMemory()
        try store.noteUpload(.noNetwork(message: "offline"), at: at(0))
        try store.noteUpload(.noNetwork(message: "still offline"), at: at(5))  // keeps its start and first error
        #expect(try store.openDelays()[.noNetwork]?.since == at(0))
        try store.noteUpload(.networkError(message: "connection refused"), at: at(10))
        try store.noteUpload(.tooLarge, at: at(12))  // halved and sent again: says nothing
        try store.noteUpload(.unauthorized(status: 401, message: "revoked"), at: at(15))
        try store.noteUpload(.acknowledged(BatchAcknowledgement()), at: at(20))
        #expect(
            try store.pendingDelays(limit: 10).map(\.delay) == [
                UploadDelay(start: at(0), end: at(10), reason: .noNetwork, detail: "first error: offline"),
                UploadDelay(
                    start: at(10), end: at(15), reason: .serverUnreachable, detail: "first error: connection refused"),
                UploadDelay(
                    start: at(15), end: at(20), reason: .refused,
                    detail: "first answer: HTTP 401 (token refused): revoked"),
            ])
        // Sampling went on: no upload's trouble is a sampling gap.
        #expect(try store.pendingGaps(limit: 10).isEmpty)
        #expect(try store.openDelays().isEmpty && store.openGaps().isEmpty)
    }

    @Test func delaysAndGapsRideTogetherAndTheReasonTellsTheKind() throws {
        let store = try LocationStore.inMemory()
        try store.noteUpload(.noNetwork(message: "offline"), at: at(0))
        try store.noteUpload(.acknowledged(BatchAcknowledgement()), at: at(3))
        try store.recordGap(GapInterval(start: at(4), end: at(5), reason: .storageFull))
        let wire = store.gapsForNextBatch()
        #expect(wire.map(\.reason) == ["no-network", "storage-full"])
        #expect(try wire.map { try $0.interval() }.map { $0.delay?.reason } == [.noNetwork, nil])
        #expect(try wire.map { try $0.interval() }.map { $0.gap?.reason } == [nil, .storageFull])
    }

    @Test func aFixTooCoarseToRecordIsNoFixUntilTheNextSample() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try coarse(store, 3)
        try coarse(store, 5)
        #expect(try store.openGaps()[.noFix]?.since == at(3))
        try store.append(fix(14), trigger: .timer, state: .background)
        #expect(
            try store.pendingGaps(limit: 10).map(\.interval) == [
                GapInterval(
                    start: at(3), end: at(14), reason: .noFix, detail: "fixes too coarse: 1204 m, the limit is 100 m")
            ])
        #expect(try store.openGaps().isEmpty)
    }

    /// The app stopped trying (iOS suspended it) long before the next sample: the no-fix gap ends
    /// at its last coarse fix, and the silences before and after it are suspension.
    @Test func aNoFixTheAppStoppedSeeingEndsWhereItWasLastSeen() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try coarse(store, 30)
        try coarse(store, 32)
        try store.append(fix(90), trigger: .significant, state: .background)
        let gaps = try store.pendingGaps(limit: 10).map(\.interval)
        #expect(gaps.map(\.reason) == [.suspended, .noFix, .suspended], "\(gaps)")
        #expect(gaps.map(\.start) == [at(0), at(30), at(32)])
        #expect(gaps.map(\.end) == [at(30), at(32), at(90)])
    }

    /// A coarse first fix that a retry 30 s later replaced filled its slot: no gap in sampling.
    @Test func aCoarseFixARetryReplacedIsNoGap() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try coarse(store, 2)
        var retry = fix(2)
        retry.timestamp = at(2) + .seconds(30)
        try store.append(retry, trigger: .timer, state: .background)
        #expect(try store.pendingGaps(limit: 10).isEmpty)
        #expect(try store.openGaps().isEmpty)
    }

    @Test func onlyACoarsePreciseFixMeansNoFix() throws {
        let store = try LocationStore.inMemory()
        // Precise Location off: approximate fixes are that condition, not the sky.
        try store.noteRejectedFix(
            fix(1, accuracy: 5000, approximate: true), .tooInaccurate(accuracy: 5000, limit: 100), at: at(1))
        try store.noteRejectedFix(fix(2), .stale(age: .seconds(600), limit: .seconds(240)), at: at(2))
        #expect(try store.openGaps().isEmpty)
    }

    @Test func anOldPhonesNoNetworkReadsAsAnUploadDelay() throws {
        let wire = WireGap(
            id: "7d0c8f4e-1b2a-4c3d-8e9f-0a1b2c3d4e02", start: at(0).milliseconds, end: at(5).milliseconds,
            reason: "no-network")
        #expect(try wire.interval() == .delay(UploadDelay(start: at(0), end: at(5), reason: .noNetwork)))
        let unknown = WireGap(id: wire.id, start: wire.start, end: wire.end, reason: "abducted")
        #expect(throws: SampleRuleViolation.self) { try unknown.interval() }
        #expect(GapReason(rawValue: "no-network") == nil)
    }
}
