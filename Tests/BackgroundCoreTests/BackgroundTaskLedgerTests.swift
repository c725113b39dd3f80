import Testing

@testable import BackgroundCore

@Suite struct BackgroundTaskLedgerTests {
    let now = Instant(milliseconds: 1_000)

    @Test func beginThenEndIsBalanced() throws {
        var ledger = BackgroundTaskLedger()
        let (maybeToken, begun) = ledger.begin(name: "upload", at: now)
        let token = try #require(maybeToken)
        #expect(begun == [.beginTask(token, name: "upload")])
        #expect(ledger.openTokens == [token])
        #expect(ledger.end(token, at: now) == [.endTask(token)])
        #expect(!ledger.hasOpenTasks)
        #expect(ledger.begunCount == 1 && ledger.endedCount == 1)
    }

    @Test func endingTwiceIsReportedNotPassedToTheSystem() throws {
        var ledger = BackgroundTaskLedger()
        let token = try #require(ledger.begin(name: "sync", at: now).0)
        _ = ledger.end(token, at: now)
        let second = ledger.end(token, at: now)
        #expect(second == [.misuse(.endOfEndedTask(token, name: "sync"))])
        #expect(second.first.map { "\($0)" }?.contains("already ended") == true)
    }

    @Test func endingAnUnknownTokenIsReported() {
        var ledger = BackgroundTaskLedger()
        let stranger = BackgroundTaskToken(rawValue: 99)
        #expect(ledger.end(stranger, at: now) == [.misuse(.endOfUnknownTask(stranger))])
    }

    @Test func expiryEndsTheTaskInTheSameStep() throws {
        var ledger = BackgroundTaskLedger()
        let token = try #require(ledger.begin(name: "work", at: now).0)
        #expect(ledger.expire(token, at: now) == [.endTask(token), .expired(token, name: "work")])
        #expect(ledger.expire(token, at: now).isEmpty, "a second expiry of an ended task needs nothing")
    }

    @Test func handOffBeginsTheNewMasterBeforeEndingOlderTasks() throws {
        var ledger = BackgroundTaskLedger()
        let first = try #require(ledger.begin(name: "a", at: now).0)
        let second = try #require(ledger.begin(name: "b", at: now).0)
        let (maybeMaster, effects) = ledger.handOff(name: "master", at: now)
        let master = try #require(maybeMaster)
        #expect(effects == [.beginTask(master, name: "master"), .endTask(first), .endTask(second)])
        #expect(ledger.openTokens == [master])
    }

    @Test func refusesToOpenMoreThanTheLimit() {
        var ledger = BackgroundTaskLedger()
        for index in 0..<BackgroundTaskLedger.openTaskLimit { _ = ledger.begin(name: "t\(index)", at: now) }
        let (token, effects) = ledger.begin(name: "one too many", at: now)
        #expect(token == nil)
        #expect(effects == [.misuse(.tooManyOpenTasks(limit: BackgroundTaskLedger.openTaskLimit))])
    }

    @Test func aRefusedBeginNeedsNoEnd() throws {
        var ledger = BackgroundTaskLedger()
        let token = try #require(ledger.begin(name: "late", at: now).0)
        ledger.beginRefused(token)
        #expect(!ledger.hasOpenTasks)
        #expect(ledger.begunCount == 0)
    }
}
