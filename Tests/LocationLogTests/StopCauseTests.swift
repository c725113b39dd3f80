import BackgroundCore
import Foundation
import LocationLog
import Testing

/// Why iOS stopped location or ended the app, on the gaps it explains (issue 40 item 3,
/// docs/ios-policy.md §Causes), in the phone's store, in virtual time.
@Suite("Stop causes: diagnostics and MetricKit exit counts on the phone's gaps")
struct StopCauseTests: MinuteDay {
    let start = Instant(milliseconds: 1_732_240_000_000)

    /// A kill (a relaunch by iOS after the last sample at minute 0), its gap closed by the sample
    /// at minute 40 and acknowledged by the server: gone from the pending gaps.
    func sentKill(_ store: LocationStore) throws -> UUID {
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.noteLaunch(.system("a location event"), at: at(30))
        try store.append(fix(40), trigger: .significant, state: .background)
        let sent = try store.pendingGaps(limit: 10)
        #expect(sent.map(\.interval.reason) == [.terminatedBySystem])
        let id = try #require(sent.first?.id)
        #expect(try store.acknowledgeGaps([id]) == 1)
        #expect(try store.pendingGaps(limit: 10).isEmpty)
        return id
    }

    @Test func aReportWithOneCauseNamesItOnTheKillAlreadySentWhichGoesAgainWithTheSameID() throws {
        let store = try LocationStore.inMemory()
        let id = try sentKill(store)
        let exits = BackgroundExitCounts(begin: at(-60), end: at(24 * 60 - 60), counts: [.memoryPressure: 1])
        #expect(try store.attributeExits(exits, at: at(25 * 60)) == 1)
        let again = try store.pendingGaps(limit: 10)
        #expect(again.map(\.id) == [id], "the same id: the server replaces the detail")
        let detail = try #require(again.first?.interval.detail)
        #expect(
            detail
                == "killed; iOS relaunched it for a location event; cause: iOS needed the memory for other apps (MetricKit)"
        )
        #expect(again.first?.interval.reason == .terminatedBySystem)
        #expect(again.first?.interval.start == at(0) && again.first?.interval.end == at(40))
        // Explained once: a second report covering it changes nothing more.
        #expect(try store.attributeExits(exits, at: at(26 * 60)) == 0)
    }

    @Test func severalCountedCausesAreListedNeverOneGuessed() throws {
        let store = try LocationStore.inMemory()
        _ = try sentKill(store)
        let exits = BackgroundExitCounts(
            begin: at(-60), end: at(24 * 60 - 60),
            counts: [.memoryPressure: 2, .backgroundTaskAssertionTimeout: 1, .cpuResourceLimit: 0])
        #expect(try store.attributeExits(exits, at: at(25 * 60)) == 1)
        let detail = try #require(try store.pendingGaps(limit: 10).first?.interval.detail)
        #expect(
            detail.hasSuffix(
                "cause one of: iOS needed the memory for other apps ×2, a background task ran past its time ×1 (MetricKit)"
            ),
            "\(detail)")
    }

    @Test func aReportForAnotherPeriodOrWithoutExitsLeavesTheKillAlone() throws {
        let store = try LocationStore.inMemory()
        _ = try sentKill(store)
        let later = BackgroundExitCounts(begin: at(24 * 60), end: at(48 * 60), counts: [.memoryPressure: 1])
        #expect(try store.attributeExits(later, at: at(49 * 60)) == 0)
        let none = BackgroundExitCounts(begin: at(-60), end: at(24 * 60), counts: [:])
        #expect(try store.attributeExits(none, at: at(25 * 60)) == 0)
        #expect(try store.pendingGaps(limit: 10).isEmpty)
        // After three days the kill is forgotten: a late report finds nothing.
        let covering = BackgroundExitCounts(begin: at(-60), end: at(24 * 60), counts: [.memoryPressure: 1])
        #expect(try store.attributeExits(covering, at: at(4 * 24 * 60)) == 0)
    }

    @Test func aKillWhoseGapIsStillOpenGetsTheCauseBeforeItIsSent() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.noteLaunch(.system("a location event"), at: at(30))
        let exits = BackgroundExitCounts(begin: at(-60), end: at(20), counts: [.abnormal: 1])
        #expect(try store.attributeExits(exits, at: at(31)) == 1)
        try store.append(fix(40), trigger: .significant, state: .background)
        let gap = try #require(try store.pendingGaps(limit: 10).first?.interval)
        #expect(gap.detail == "killed; iOS relaunched it for a location event; cause: the app crashed (MetricKit)")
    }

    @Test func notInUseOrNoServiceSessionIsLocationWithheldUntilTheNextSample() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.noteDiagnostic([.insufficientlyInUse], at: at(5))
        #expect(try store.openGaps()[.locationWithheld]?.detail == StopCause.insufficientlyInUse.words)
        try store.append(fix(50), trigger: .foreground, state: .foreground)
        let gaps = try store.pendingGaps(limit: 10).map(\.interval)
        #expect(
            gaps.contains(
                GapInterval(
                    start: at(5), end: at(50), reason: .locationWithheld, detail: StopCause.insufficientlyInUse.words)),
            "\(gaps)")
        // An all-clear diagnostic ends it too.
        try store.noteDiagnostic([.serviceSessionRequired], at: at(60))
        try store.noteDiagnostic([], at: at(70))
        #expect(try store.openGaps()[.locationWithheld] == nil)
    }

    @Test func aDiagnosticAddsItsWordsToTheConditionItExplains() throws {
        let store = try LocationStore.inMemory()
        try store.setGapConditions(
            [.authorizationLowered: "Always → Never"], among: [.authorizationLowered], at: at(1))
        try store.noteDiagnostic([.authorizationDenied, .fullAccuracyDenied], at: at(2))
        try store.noteDiagnostic([.authorizationDenied], at: at(3))  // said again: said once
        let open = try store.openGaps()
        #expect(open[.authorizationLowered]?.detail == "Always → Never; location permission set to Never")
        #expect(open[.authorizationLowered]?.since == at(1))
        #expect(open[.preciseOff]?.detail == "Precise Location turned off")
    }

    @Test func everyCauseHasASourceAGapAndWords() {
        for cause in StopCause.allCases {
            #expect(!cause.words.isEmpty)
            #expect(StopCause.diagnostics.contains(cause) != StopCause.exits.contains(cause), "\(cause)")
            if StopCause.exits.contains(cause) {
                #expect(cause.gapReason == .terminatedBySystem)
                #expect(
                    cause.source.hasPrefix("MXBackgroundExitData.cumulative") && cause.source.hasSuffix("ExitCount"))
            } else {
                #expect(cause.source == "CLServiceSession.Diagnostic.\(cause.rawValue)")
            }
        }
    }
}
