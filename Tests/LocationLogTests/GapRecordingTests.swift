import BackgroundCore
import Foundation
import LocationLog
import LocationLogTesting
import Testing

/// What the phone's store records about why it did not sample (issue 24 item 3), in virtual time.
@Suite("Gap intervals: the phone's store")
struct GapRecordingTests: MinuteDay {
    let start = Instant(milliseconds: 1_732_240_000_000)

    func pending(_ store: LocationStore) throws -> [GapInterval] {
        try store.pendingGaps(limit: 1000).map(\.interval)
    }

    @Test func aForceQuitTheAppWasToldOfIsExplainedUntilTheNextSample() throws {
        let store = try LocationStore.inMemory()
        try store.noteLaunch(.user, at: at(0))  // the first launch: nothing to explain
        try store.append(fix(1), trigger: .timer, state: .background)
        try store.noteWillTerminate(at: at(5))
        try store.noteLaunch(.user, at: at(30))
        #expect(try pending(store).isEmpty)  // open until sampling resumes
        #expect(try store.openGaps()[.forceQuit]?.since == at(1))
        try store.append(fix(31), trigger: .foreground, state: .foreground)
        #expect(
            try pending(store) == [
                GapInterval(start: at(1), end: at(31), reason: .forceQuit, detail: "the user reopened it")
            ])
        #expect(try store.openGaps().isEmpty)
    }

    @Test func aKillNobodyAnnouncedIsNotCalledAForceQuit() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.noteLaunch(.user, at: at(40))
        try store.append(fix(41), trigger: .foreground, state: .foreground)
        let gap = try #require(try pending(store).first)
        #expect(gap.reason == .terminatedBySystem)
        #expect(gap.detail == "killed or force-quit (iOS does not say which); the user reopened it")
    }

    @Test func aSystemRelaunchSaysWhatRelaunchedTheApp() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.noteWillTerminate(at: at(1))  // even if told: iOS, not the user, brought it back
        try store.noteLaunch(.system("a region exit"), at: at(50))
        try store.append(fix(50), trigger: .region, state: .background)
        #expect(
            try pending(store) == [
                GapInterval(
                    start: at(0), end: at(50), reason: .terminatedBySystem,
                    detail: "killed; iOS relaunched it for a region exit")
            ])
    }

    @Test func aLongSilenceInOneProcessIsSuspensionAndAShortOneIsNothing() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.append(fix(3), trigger: .timer, state: .background)
        #expect(try pending(store).isEmpty)
        try store.append(fix(13), trigger: .timer, state: .background)  // exactly the threshold: not more
        #expect(try pending(store).isEmpty)
        try store.append(fix(60), trigger: .region, state: .background)
        #expect(
            try pending(store) == [
                GapInterval(start: at(13), end: at(60), reason: .suspended, detail: "woken by a region exit")
            ])
    }

    @Test func conditionsOpenAndCloseFromTheSettingsTheAppHeard() throws {
        let store = try LocationStore.inMemory()
        var environment = KeepAliveEnvironment(iosMajor: 17)
        environment.lowPowerMode = true
        environment.authorization = .whenInUse
        try store.setGapConditions(
            GapConditions.of(environment, wanted: .always), among: GapConditions.managed, at: at(0))
        #expect(Set(try store.openGaps().keys) == [.lowPowerMode, .authorizationLowered])
        // Heard again later: still open, from the first time.
        try store.setGapConditions(
            GapConditions.of(environment, wanted: .always), among: GapConditions.managed, at: at(5))
        environment.lowPowerMode = false
        environment.preciseLocation = false
        try store.setGapConditions(
            GapConditions.of(environment, wanted: .always), among: GapConditions.managed, at: at(10))
        #expect(try pending(store) == [GapInterval(start: at(0), end: at(10), reason: .lowPowerMode)])
        #expect(Set(try store.openGaps().keys) == [.authorizationLowered, .preciseOff])
        #expect(try store.openGaps()[.authorizationLowered]?.detail == "Always → When In Use")
        // An app that only wants When In Use is not "lowered" by it.
        #expect(GapConditions.of(environment, wanted: .whenInUse)[.authorizationLowered] == nil)
    }

    @Test func onlyTheAcknowledgedGapsLeaveThePhone() throws {
        let store = try LocationStore.inMemory()
        let first = try store.recordGap(GapInterval(start: at(0), end: at(1), reason: .storageFull))
        let second = try store.record(.delay(UploadDelay(start: at(2), end: at(3), reason: .noNetwork)))
        #expect(try store.acknowledgeGaps([first, UUID()]) == 1)
        #expect(try store.pendingIntervals(limit: 10).map(\.id) == [second])
        #expect(try store.acknowledgeGaps([]) == 0)
    }

    @Test func gapsRideWithTheNextBatchAndLeaveOnlyWhenAcknowledged() async throws {
        let time = ManualTime(start)
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.append(fix(45), trigger: .visit, state: .background)
        // The answer is lost after the server stored everything: the gap stays and is sent again.
        let server = InMemoryBatchServer(loseAnswers: 1, now: time.reader)
        let engine = try SyncEngine(store: store, transport: server, device: "iphone-42", seed: 7, now: time.reader)
        _ = try await engine.wake()
        #expect(try store.pendingGaps(limit: 10).count == 1)
        time.advance(by: .seconds(3600))
        let report = try await engine.wake()
        #expect(report.gapsAcknowledged == 1)
        #expect(try store.pendingGaps(limit: 10).isEmpty)
        let stored = await server.gaps
        #expect(stored.count == 1)
        #expect(stored.values.first?.reason == "suspended")
    }

    @Test func aBatchWithoutGapsIsTheVersionOneBody() throws {
        let plain = BatchRequest(batch: "b", device: "d", samples: [], gaps: [])
        let json = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        #expect(!json.contains("\"v\"") && !json.contains("gaps"))
        let gap = WireGap(id: UUID(), GapInterval(start: at(0), end: at(1), reason: .forceQuit))
        let versioned = BatchRequest(batch: "b", device: "d", samples: [], gaps: [gap])
        #expect(versioned.v == 2)
        let decoded = try JSONDecoder().decode(
            BatchRequest.self, from: try JSONEncoder().encode(versioned))
        #expect(decoded.gaps == [gap])
    }

    /// With the phone's zone the batch is version 3 and carries `tz` (and its gaps); without, the
    /// body is exactly what an older server reads.
    @Test func aBatchWithAZoneIsVersionThree() throws {
        let gap = WireGap(id: UUID(), GapInterval(start: at(0), end: at(1), reason: .forceQuit))
        let zoned = BatchRequest(batch: "b", device: "d", samples: [], gaps: [gap], timeZone: "Asia/Kathmandu")
        #expect(zoned.v == 3 && zoned.tz == "Asia/Kathmandu" && zoned.gaps == [gap])
        let json = String(decoding: try JSONEncoder().encode(zoned), as: UTF8.self)
        #expect(json.contains(#""tz":"Asia\/Kathmandu""#) || json.contains(#""tz":"Asia/Kathmandu""#))
        let plain = BatchRequest(batch: "b", device: "d", samples: [], gaps: [], timeZone: nil)
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("tz"))
    }

    @Test func gapsSurviveReopeningTheFileBeforeTheAcknowledgement() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        do {
            let (store, _) = try LocationStore.open(path: path, now: start)
            try store.append(fix(0), trigger: .timer, state: .background)
            try store.noteWillTerminate(at: at(1))
            try store.openGap(.lowPowerMode, at: at(0))
        }
        // A new process: the store remembers the last sample, the notice and the open condition.
        let (store, _) = try LocationStore.open(path: path, now: at(20))
        try store.noteLaunch(.user, at: at(20))
        try store.append(fix(21), trigger: .foreground, state: .foreground)
        #expect(try store.pendingGaps(limit: 10).map(\.interval.reason) == [.forceQuit])
        #expect(try store.openGaps()[.lowPowerMode]?.since == at(0))
    }
}

extension GapRecordingTests {
    @Test func trackingTurnedOffIsNotCalledSuspension() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.noteTrackingStopped(at: at(1), detail: "the server ended the session")
        try store.append(fix(45), trigger: .foreground, state: .foreground)
        let stopped = try store.pendingGaps(limit: 10).map(\.interval)
        #expect(
            stopped == [
                GapInterval(start: at(1), end: at(45), reason: .trackingStopped, detail: "the server ended the session")
            ])
        // A launch while tracking is off is not called a kill: tracking had been off.
        try store.noteTrackingStopped(at: at(46))
        try store.noteLaunch(.user, at: at(90))
        #expect(try store.openGaps().keys.sorted { $0.rawValue < $1.rawValue } == [.trackingStopped])
    }
}

extension GapRecordingTests {
    @Test func twoLaunchesBeforeASampleAreOneSilence() throws {
        let store = try LocationStore.inMemory()
        try store.append(fix(0), trigger: .timer, state: .background)
        try store.noteLaunch(.system("a region exit"), at: at(20))
        try store.noteWillTerminate(at: at(21))
        try store.noteLaunch(.user, at: at(40))
        try store.append(fix(41), trigger: .foreground, state: .foreground)
        #expect(
            try pending(store) == [
                GapInterval(start: at(0), end: at(41), reason: .forceQuit, detail: "the user reopened it")
            ])
    }
}
