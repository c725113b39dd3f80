import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackServer

/// The gap-interval part of the ``TrackStore`` contract (issue 24 item 3), on every store.
enum GapContract {
    static let now = StoreContract.now
    static let base = Instant(milliseconds: 1_732_240_000_000)
    /// After every gap of these checks.
    static let end = base + .seconds(2 * 86_400)

    static func gap(
        _ id: String, _ startMinutes: Int64, _ endMinutes: Int64, _ reason: GapReason, _ detail: String? = nil
    )
        -> IngestGap
    {
        IngestGap(
            id: id,
            interval: GapInterval(
                start: base + .seconds(startMinutes * 60), end: base + .seconds(endMinutes * 60), reason: reason,
                detail: detail))
    }

    static func intervalsAreStoredOnceAndReadByOverlap(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        _ = try await store.addDevice(name: "b", tokenHash: "hb", at: now)
        let quit = gap("g1", 630, 660, .forceQuit, "the user reopened it")
        // An upload delay (issue 37 item 3) shares the table; the reason tells it apart.
        let offline = IngestGap(
            id: "g2",
            interval: .delay(
                UploadDelay(start: base + .seconds(780 * 60), end: base + .seconds(900 * 60), reason: .noNetwork)))
        let still = gap("g3", 100, 100, .suspended)
        try await store.insertGaps([offline, quit, still], device: "a", at: now)
        // A re-sent batch: the same ids again, one with other values, change nothing.
        let changed = gap("g1", 630, 660, .terminatedBySystem)
        try await store.insertGaps([changed, offline], device: "a", at: now)
        try await store.insertGaps([gap("g1", 0, 1, .lowPowerMode)], device: "b", at: now)

        let all = try await store.reportedIntervals(device: "a", from: .epoch, to: end)
        #expect(all == [still.interval, quit.interval, offline.interval])
        #expect(try await store.gapIntervals(device: "a", from: .epoch, to: end).count == 2)
        #expect(try await store.uploadDelays(device: "a", from: .epoch, to: end) == [offline.interval.delay])
        // Overlap: a range inside the outage finds it; one that ends at its start does not.
        let inside = try await store.reportedIntervals(
            device: "a", from: base + .seconds(800 * 60), to: base + .seconds(801 * 60))
        #expect(inside == [offline.interval])
        let before = try await store.reportedIntervals(device: "a", from: base, to: base + .seconds(630 * 60))
        #expect(before == [still.interval])
        // A zero-length interval at the range's start is in it.
        let atStart = try await store.gapIntervals(
            device: "a", from: base + .seconds(100 * 60), to: base + .seconds(101 * 60))
        #expect(atStart.map(ReportedInterval.gap) == [still.interval])
        #expect(try await store.gapIntervals(device: "b", from: .epoch, to: end).map(\.reason) == [.lowPowerMode])
        #expect(try await store.gapIntervals(device: "nobody", from: .epoch, to: end).isEmpty)
    }

    static func anUnknownDeviceStoresNoGap(_ store: any TrackStore) async throws {
        await #expect(throws: TrackStoreError.unknownDevice("ghost")) {
            try await store.insertGaps([gap("g1", 0, 1, .suspended)], device: "ghost", at: now)
        }
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        #expect(try await store.revokeDevice(named: "a", at: now))
        await #expect(throws: TrackStoreError.unknownDevice("a")) {
            try await store.insertGaps([gap("g1", 0, 1, .suspended)], device: "a", at: now)
        }
    }

    static func manyGapsAndLongDetailsRoundTrip(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        let detail = String(repeating: "é", count: WireGap.maximumDetailLength)
        let reasons = GapReason.allCases
        let gaps = (0..<1000).map { gap("g\($0)", Int64($0), Int64($0) + 1, reasons[$0 % reasons.count], detail) }
        try await store.insertGaps(gaps, device: "a", at: now)
        let read = try await store.gapIntervals(device: "a", from: .epoch, to: end)
        #expect(read.count == 1000)
        #expect(read.first?.detail == detail)
        #expect(Set(read.map(\.reason)) == Set(GapReason.allCases))
    }

    /// A late cause (docs/protocol.md §Gaps): the phone sends a kill gap again, same id, reason and
    /// interval, with MetricKit's cause added to its detail; the stored detail becomes it. Anything
    /// else resent (another detail, a shorter one, another interval) changes nothing.
    static func aLateCauseExtendsTheStoredDetail(_ store: any TrackStore) async throws {
        _ = try await store.addDevice(name: "a", tokenHash: "ha", at: now)
        let known = "killed; iOS relaunched it for a location event"
        let late = known + "; cause: iOS needed the memory for other apps (MetricKit)"
        let bare = gap("g2", 700, 710, .terminatedBySystem)
        try await store.insertGaps([gap("g1", 630, 660, .terminatedBySystem, known), bare], device: "a", at: now)
        try await store.insertGaps(
            [
                gap("g1", 630, 660, .terminatedBySystem, late),
                gap("g2", 700, 710, .terminatedBySystem, "cause: the app crashed (MetricKit)"),
            ], device: "a", at: now)
        // Not an extension: another detail, a shorter one, another interval or reason.
        try await store.insertGaps(
            [
                gap("g1", 630, 660, .terminatedBySystem, known),
                gap("g1", 630, 661, .terminatedBySystem, late + "!"),
                gap("g1", 630, 660, .forceQuit, late + "!"),
                gap("g2", 700, 710, .terminatedBySystem, "something else entirely, and longer than before"),
            ], device: "a", at: now)
        let read = try await store.gapIntervals(device: "a", from: .epoch, to: end)
        #expect(read.map(\.detail) == [late, "cause: the app crashed (MetricKit)"])
        #expect(read.map(\.end) == [base + .seconds(660 * 60), base + .seconds(710 * 60)])
    }
}

@Suite("Gap intervals: store contract on SQLite")
struct GapStoreContractSQLite {
    @Test(arguments: StoreKind.allCases)
    func intervalsAreStoredOnceAndReadByOverlap(kind: StoreKind) async throws {
        try await GapContract.intervalsAreStoredOnceAndReadByOverlap(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func anUnknownDeviceStoresNoGap(kind: StoreKind) async throws {
        try await GapContract.anUnknownDeviceStoresNoGap(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func manyGapsAndLongDetailsRoundTrip(kind: StoreKind) async throws {
        try await GapContract.manyGapsAndLongDetailsRoundTrip(kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func aLateCauseExtendsTheStoredDetail(kind: StoreKind) async throws {
        try await GapContract.aLateCauseExtendsTheStoredDetail(kind.make())
    }
}

@Suite("Gap intervals: store contract on PostgreSQL")
struct GapStoreContractPostgres {
    @Test(.postgres) func intervalsAreStoredOnceAndReadByOverlap() async throws {
        try await PostgresTestDatabase.withStore { try await GapContract.intervalsAreStoredOnceAndReadByOverlap($0) }
    }

    @Test(.postgres) func anUnknownDeviceStoresNoGap() async throws {
        try await PostgresTestDatabase.withStore { try await GapContract.anUnknownDeviceStoresNoGap($0) }
    }

    @Test(.postgres) func manyGapsAndLongDetailsRoundTrip() async throws {
        try await PostgresTestDatabase.withStore { try await GapContract.manyGapsAndLongDetailsRoundTrip($0) }
    }

    @Test(.postgres) func aLateCauseExtendsTheStoredDetail() async throws {
        try await PostgresTestDatabase.withStore { try await GapContract.aLateCauseExtendsTheStoredDetail($0) }
    }
}
