import BackgroundCore
import Foundation
import LocationLog
import Testing

/// The sync machine against a model of the phone's store and the server (issue 9, item 17):
/// random answers, lost acknowledgements, kills between any two actions, lost saves, holds, a
/// server that refuses some samples and one that contradicts itself. Invariants, checked at every
/// step: a sample leaves the phone only when the server holds it (or refused it, into quarantine);
/// and, after a healthy drain, every sample the phone created is on the server exactly once or
/// quarantined, never both, never neither.
@Suite struct SyncMachinePropertyTests {
    /// The server: what it stored (once per id, as the real one deduplicates by id), how many
    /// copies reached it, and which ids it will always refuse.
    struct ModelServer {
        var stored: Set<UUID> = []
        var copiesReceived: [UUID: Int] = [:]
        var refuses: Set<UUID> = []

        mutating func receive(_ batch: [UUID]) -> BatchAcknowledgement {
            var ack = BatchAcknowledgement()
            for id in batch {
                copiesReceived[id, default: 0] += 1
                if refuses.contains(id) {
                    ack.rejected[id] = "refused by the model"
                } else {
                    stored.insert(id)
                    ack.stored.insert(id)
                }
            }
            return ack
        }
    }

    /// The phone: its durable rows and saved sync state; the machine is rebuilt from them after a kill.
    struct ModelPhone {
        var pending: [UUID] = []
        var quarantined: Set<UUID> = []
        var created: [UUID] = []
        var saved = SyncSnapshot()
    }

    static let configuration = SyncMachine.Configuration(
        uploadInterval: .seconds(60), batchSize: 8, initialBackoff: .seconds(5), maximumBackoff: .seconds(600))

    @Test(arguments: 0..<8) func randomRunsLoseNothingAndDuplicateNothing(batch: Int) throws {
        var resentCopies = 0
        var lostAcknowledgements = 0
        var kills = 0
        for sequence in 0..<100 {
            let seed = UInt64(batch * 100 + sequence)
            var random = SeededRandom(seed: seed)
            var server = ModelServer()
            var phone = ModelPhone()
            var machine = SyncMachine(configuration: Self.configuration, snapshot: phone.saved, seed: seed)
            var now = Instant(milliseconds: 1_732_492_800_000)
            var counter = 0

            func newID() -> UUID {
                counter += 1
                // `%012x` of a counter: a valid UUID, unique in the run, readable in a failure.
                return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", counter)) ?? UUID()
            }

            /// Performs the machine's actions; returns false if the phone was killed part-way.
            func perform(_ actions: [SyncMachine.Action], healthy: Bool) -> Bool {
                for action in actions {
                    if !healthy && random.next() % 25 == 0 {
                        kills += 1
                        machine = SyncMachine(
                            configuration: Self.configuration, snapshot: phone.saved, seed: random.next())
                        return false
                    }
                    switch action {
                    case .upload(let limit):
                        let sent = Array(phone.pending.prefix(limit))
                        let outcome = answer(to: sent, healthy: healthy)
                        guard
                            perform(
                                machine.handle(
                                    .uploaded(sent: Set(sent), outcome: outcome, took: .seconds(2)), at: now),
                                healthy: healthy)
                        else { return false }
                    case .acknowledge(let delete, let quarantine):
                        // The promise, checked where it is kept.
                        #expect(
                            delete.isSubset(of: server.stored), "seed \(seed): deleted samples the server does not hold"
                        )
                        #expect(
                            Set(quarantine.keys).isSubset(of: server.refuses),
                            "seed \(seed): quarantined a sample the server did not refuse")
                        phone.pending.removeAll { delete.contains($0) || quarantine[$0] != nil }
                        phone.quarantined.formUnion(quarantine.keys)
                    case .save(let snapshot):
                        // One save in ten is lost (killed before it was written) while the network is bad.
                        if healthy || random.next() % 10 != 0 { phone.saved = snapshot }
                    case .notifyUser, .log:
                        break
                    }
                }
                return true
            }

            func answer(to sent: [UUID], healthy: Bool) -> UploadOutcome {
                if healthy { return .acknowledged(server.receive(sent)) }
                switch random.next() % 12 {
                case 0, 1, 2:
                    return .acknowledged(server.receive(sent))
                case 3:
                    // Stored, then the answer was lost on the way back.
                    _ = server.receive(sent)
                    lostAcknowledgements += 1
                    return .networkError(message: "connection reset after the request was sent")
                case 4:
                    // Stored, but the answer names only some of them.
                    var ack = server.receive(sent)
                    ack.stored = Set(ack.stored.filter { _ in random.next() % 2 == 0 })
                    return .acknowledged(ack)
                case 5:
                    // A confused server: names one id as both stored and rejected, and an id never sent.
                    var ack = server.receive(sent)
                    if let id = sent.first { ack.rejected[id] = "contradiction" }
                    ack.stored.insert(newID())
                    return .acknowledged(ack)
                case 6: return .networkError(message: "no route")
                case 7: return .serverError(status: 503, message: "down")
                case 8: return .tooLarge
                case 9: return .rateLimited(retryAfter: .seconds(Int64(random.next() % 120)))
                case 10: return .unauthorized(status: 401, message: "revoked")
                default: return .acknowledged(BatchAcknowledgement(stored: [newID()]))  // none of ours
                }
            }

            for _ in 0..<Int(40 + random.next() % 80) {
                now += .seconds(Int64(random.next() % 90))
                switch random.next() % 6 {
                case 0, 1:
                    for _ in 0..<Int(1 + random.next() % 6) {
                        let id = newID()
                        phone.created.append(id)
                        phone.pending.append(id)
                        if random.next() % 15 == 0 { server.refuses.insert(id) }
                    }
                case 2:
                    _ = perform(machine.handle(.credentialsChanged, at: now), healthy: false)
                default:
                    let remaining: Duration? = random.next() % 3 == 0 ? .seconds(Int64(random.next() % 60)) : nil
                    _ = perform(
                        machine.handle(
                            .wake(pending: phone.pending.count, backgroundTimeRemaining: remaining), at: now),
                        healthy: false)
                }
            }

            // The network heals and the user signs in again: the backlog must drain completely.
            _ = perform(machine.handle(.credentialsChanged, at: now), healthy: true)
            var rounds = 0
            while !phone.pending.isEmpty && rounds < 1_000 {
                rounds += 1
                now += Self.configuration.maximumBackoff
                _ = perform(
                    machine.handle(.wake(pending: phone.pending.count, backgroundTimeRemaining: nil), at: now),
                    healthy: true)
            }
            #expect(phone.pending.isEmpty, "seed \(seed): \(phone.pending.count) samples never drained")
            let created = Set(phone.created)
            let lost = created.subtracting(server.stored).subtracting(phone.quarantined)
            #expect(lost.isEmpty, "seed \(seed): lost \(lost.count) samples")
            #expect(server.stored.isDisjoint(with: phone.quarantined), "seed \(seed): stored and quarantined both")
            #expect(phone.quarantined == server.refuses, "seed \(seed): quarantine and server refusals differ")
            resentCopies += server.copiesReceived.values.reduce(0) { $0 + max(0, $1 - 1) }
        }
        // The faults must actually happen, or the invariants above prove nothing.
        #expect(kills > 0 && lostAcknowledgements > 0 && resentCopies > 0)
    }
}
