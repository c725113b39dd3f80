import Testing

@testable import BackgroundCore

/// Random event sequences, as a hostile or confused shell might deliver them, against every
/// strategy: the machine must never end a task twice, never leave an expiry unanswered, never
/// report ledger misuse, and leave nothing running after `.stop`.
@Suite struct KeepAlivePropertyTests {
    static let timers: [TimerID] = [
        KeepAliveMachine.sampleTimer, "location-refresh", "location-refresh-stop", "location-or-audio",
        "fix-and-task-chain", "unknown",
    ]

    @Test(arguments: StrategyName.allCases) func randomEventsKeepTheInvariants(strategy: StrategyName) {
        for sequence in 0..<400 {
            // The seed every message prints is the one that reproduces the run: this strategy,
            // `SeededRandom(seed:)` with it, the same steps (no `hashValue`, which changes per process).
            let seed = UInt64(sequence)
            var random = SeededRandom(seed: seed)
            let ios = [6, 12, 16, 17, 18][Int(random.next() % 5)]
            let auth: LocationAuthorization = random.next() % 2 == 0 ? .always : .whenInUse
            var machine = KeepAliveMachine(strategy: strategy, environment: .init(iosMajor: ios, authorization: auth))
            var now = Instant(milliseconds: 1_732_492_800_000)
            var open: Set<BackgroundTaskToken> = []
            var ended: Set<BackgroundTaskToken> = []
            var stopped = false
            for step in 0..<Int(50 + random.next() % 150) {
                now += .milliseconds(Int64(random.next() % 90_000))
                let event = randomEvent(&random, open: open, now: now, step: step)
                if case .stop = event { stopped = true }
                let effects = machine.handle(event, at: now)
                if case .taskExpiring(let token) = event, open.contains(token) {
                    #expect(
                        effects.contains(.task(.endTask(token))),
                        "\(strategy.rawValue), seed \(seed): expiry of \(token) not ended")
                }
                for effect in effects {
                    guard case .task(let taskEffect) = effect else { continue }
                    switch taskEffect {
                    case .beginTask(let token, _):
                        #expect(!stopped, "\(strategy.rawValue), seed \(seed): a stopped machine began a task")
                        open.insert(token)
                    case .endTask(let token):
                        #expect(
                            open.contains(token) && !ended.contains(token),
                            "\(strategy.rawValue), seed \(seed): bad end of \(token)")
                        open.remove(token)
                        ended.insert(token)
                    case .misuse(let misuse):
                        Issue.record(
                            "\(strategy.rawValue), seed \(seed): \(strategy.rawValue) misused the ledger: \(misuse)")
                    case .expired:
                        break
                    }
                }
                if case .taskRefused(let token) = event { open.remove(token) }
                #expect(
                    Set(machine.ledger.openTokens) == open,
                    "\(strategy.rawValue), seed \(seed): ledger and effects disagree")
                if stopped { #expect(open.isEmpty, "\(strategy.rawValue), seed \(seed): tasks left open after stop") }
            }
        }
    }

    private func randomEvent(_ random: inout SeededRandom, open: Set<BackgroundTaskToken>, now: Instant, step: Int)
        -> KeepAliveEvent
    {
        if step == 0 { return .launched(random.next() % 2 == 0 ? .user : .significantChange) }
        switch random.next() % 14 {
        case 0: return .enteredBackground
        case 1: return .enteredForeground
        case 2, 3: return .timerFired(Self.timers[Int(random.next() % UInt64(Self.timers.count))])
        case 4, 5:
            if let token = open.randomElement(using: &random) { return .taskExpiring(token) }
            return .taskExpiring(BackgroundTaskToken(rawValue: random.next() % 50))
        case 6:
            if let token = open.randomElement(using: &random) { return .taskRefused(token) }
            return .enteredBackground
        case 7, 8:
            let fix = LocationFix(
                timestamp: now - .seconds(Int64(random.next() % 400)), latitude: random.uniform(-95...95),
                longitude: random.uniform(-185...185), horizontalAccuracy: random.uniform(-5...2_000))
            return .locationFix(fix, source: FixSource.allCases[Int(random.next() % 5)])
        case 9:
            return .environmentChanged(
                .init(
                    iosMajor: 17, authorization: LocationAuthorization.allCases[Int(random.next() % 4)],
                    locationServicesEnabled: random.next() % 4 != 0, lowPowerMode: random.next() % 2 == 0,
                    batteryLevel: random.unit()))
        case 10: return .woke(LaunchReason.allCases[Int(random.next() % 7)])
        case 11: return .audioInterruption(began: random.next() % 2 == 0)
        case 12: return random.next() % 8 == 0 ? .stop : .enteredBackground
        default: return .launched(LaunchReason.allCases[Int(random.next() % 7)])
        }
    }
}
