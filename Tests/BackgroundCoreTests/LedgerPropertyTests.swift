import Testing

@testable import BackgroundCore

/// Random, seeded, reproducible operation sequences against the ledger, checked against a model.
@Suite struct LedgerPropertyTests {
    @Test(arguments: 0..<4) func randomSequencesKeepBeginAndEndBalanced(batch: Int) {
        var refusedAtTheLimit = 0
        for sequence in 0..<1_000 {
            // Every fourth sequence mostly begins tasks, long enough to run into the open-task limit.
            let beginHeavy = sequence % 4 == 0
            let seed = UInt64(batch * 1_000 + sequence)
            var random = SeededRandom(seed: seed)
            var ledger = BackgroundTaskLedger()
            var open: Set<BackgroundTaskToken> = []
            var endedBySystem: Set<BackgroundTaskToken> = []
            var issued: [BackgroundTaskToken] = []
            var now = Instant.epoch
            for _ in 0..<Int(random.next() % (beginHeavy ? 400 : 60)) {
                now += .milliseconds(Int64(random.next() % 5_000))
                let pick = beginHeavy && random.next() % 5 != 0 ? 0 : random.next() % 7
                var effects: [BackgroundTaskLedger.Action]
                switch pick {
                case 0, 1:
                    let full = open.count >= BackgroundTaskLedger.openTaskLimit
                    let (token, begun) = ledger.begin(name: "t", at: now)
                    effects = begun
                    if let token { issued.append(token) }
                    if full {
                        refusedAtTheLimit += 1
                        #expect(token == nil, "seed \(seed): a begin past the limit was granted")
                        #expect(
                            begun == [.misuse(.tooManyOpenTasks(limit: BackgroundTaskLedger.openTaskLimit))],
                            "seed \(seed): a begin past the limit must only report misuse")
                    } else {
                        #expect(token != nil, "seed \(seed): a begin under the limit was refused")
                    }
                case 2:
                    let (token, begun) = ledger.handOff(name: "master", at: now)
                    effects = begun
                    if let token { issued.append(token) }
                case 3, 4:
                    // End a random issued token, or one the ledger never issued.
                    let token =
                        issued.isEmpty || random.next() % 10 == 0
                        ? BackgroundTaskToken(rawValue: 1_000_000 + random.next() % 10)
                        : issued[Int(random.next() % UInt64(issued.count))]
                    effects = ledger.end(token, at: now)
                    if !open.contains(token) {
                        #expect(effects.count == 1, "seed \(seed): ending a closed token must only report misuse")
                        if case .misuse = effects.first {} else { Issue.record("seed \(seed): silent bad end") }
                    }
                case 5:
                    guard let token = open.randomElement(using: &random) else { continue }
                    effects = ledger.expire(token, at: now)
                    #expect(effects.first == .endTask(token), "seed \(seed): expiry must end the task at once")
                default:
                    effects = ledger.endAll(at: now)
                }
                for effect in effects {
                    switch effect {
                    case .beginTask(let token, _):
                        #expect(!open.contains(token) && !endedBySystem.contains(token), "seed \(seed): token reused")
                        open.insert(token)
                    case .endTask(let token):
                        #expect(open.contains(token), "seed \(seed): \(token) ended while not open")
                        #expect(!endedBySystem.contains(token), "seed \(seed): \(token) ended twice")
                        open.remove(token)
                        endedBySystem.insert(token)
                    case .expired, .misuse:
                        break
                    }
                }
                #expect(Set(ledger.openTokens) == open, "seed \(seed): ledger and model disagree")
                #expect(ledger.begunCount - ledger.endedCount == open.count)
            }
            _ = ledger.endAll(at: now).map { if case .endTask(let token) = $0 { open.remove(token) } }
            #expect(open.isEmpty, "seed \(seed): endAll must leave nothing open")
        }
        // The limit is part of the contract: the random walks must actually reach it.
        #expect(
            refusedAtTheLimit > 0, "no sequence reached the limit of \(BackgroundTaskLedger.openTaskLimit) open tasks")
    }
}
