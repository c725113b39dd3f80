import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import LocationLogTesting
import Testing

@testable import IOSSimulator
@testable import TrackServer

/// One sample rule set (issue 26 item 1): every judge of a sample gives the same verdict.
///
/// 10,000 seeded mutated samples go to the phone's check (`Sample.check(receivedAt:)`), the real
/// server's native route over HTTP, its parser with the scanner off (the other two JSON readers),
/// the simulated server and the in-memory test server; each must accept the same samples and
/// refuse the others with the same rule and the same message. The phone's recording path (the
/// sampling machine's fix check) is held to the rules it shares: it never refuses a fix for a
/// sample rule the server would not name, and refuses every position the server refuses.
@Suite("Sample rules: one verdict from every judge")
struct SampleRulesCrossValidatorTests {
    static let count = 10_000
    static let now = TestServer.start

    enum Verdict: Hashable, CustomStringConvertible {
        case accepted
        case refused(SampleRuleViolation.Code)
        var description: String {
            switch self {
            case .accepted: "accepted"
            case .refused(let code): "refused: \(code.rawValue)"
            }
        }
    }

    /// The phone's verdict and the message every receiver must give.
    static func phone(_ wire: WireSample) -> (Verdict, SampleRuleViolation?) {
        do {
            try wire.decoded().check(receivedAt: now)
            return (.accepted, nil)
        } catch {
            return (.refused(error.code), error)
        }
    }

    @Test func tenThousandMutatedSamplesGetTheSameVerdictEverywhere() async throws {
        var generator = MutatedSamples(seed: 26, now: Self.now)
        let samples = (0..<Self.count).map { _ in generator.next() }
        let expected = samples.map(Self.phone)
        var tally: [Verdict: Int] = [:]
        for (verdict, _) in expected { tally[verdict, default: 0] += 1 }

        // The in-memory test server and the simulated server, in process (NaN and infinities too).
        let fake = InMemoryBatchServer(now: { Self.now })
        let sent = BatchRequest(batch: UUID().wireString, device: "iphone-42", samples: samples)
        guard case .acknowledged(let fakeAnswer) = await fake.send(sent) else {
            Issue.record("the in-memory server did not acknowledge")
            return
        }
        var simulated = SimulatedServer()
        let decodable = samples.compactMap { try? $0.decoded() }
        guard case .acknowledged(let simulatedAnswer) = simulated.receive(decodable, at: Self.now) else {
            Issue.record("the simulated server did not acknowledge")
            return
        }
        var mismatches: [String] = []
        for (wire, (verdict, violation)) in zip(samples, expected) {
            let uuid = UUID(uuidString: wire.id)
            let fakeReason = fakeAnswer.rejected.first { UUID(uuidString: wire.id) == $0.key }?.value
            if let uuid {
                if (fakeAnswer.stored.contains(uuid) ? nil : fakeAnswer.rejected[uuid]) != violation?.message {
                    mismatches.append("fake server, \(wire): \(fakeReason ?? "accepted") ≠ \(verdict)")
                }
            }
            if let sample = try? wire.decoded() {
                let reason = simulatedAnswer.stored.contains(sample.id) ? nil : simulatedAnswer.rejected[sample.id]
                if reason != violation?.message {
                    mismatches.append("simulated server, \(wire): \(reason ?? "accepted") ≠ \(verdict)")
                }
            }
        }

        // The real server: over HTTP through the router, and its parser on the slower readers.
        let server = try await TestServer()
        let sendable = samples.indices.filter { MutatedSamples.isSendable(samples[$0]) }
        let parser = NativeBatchParser(maxSamples: 1_000)
        for chunk in stride(from: 0, to: sendable.count, by: 500).map({
            Array(sendable[$0..<min($0 + 500, sendable.count)])
        }) {
            let request = BatchRequest(
                batch: UUID().wireString, device: "iphone-42", samples: chunk.map { samples[$0] })
            let body = try JSONEncoder().encode(request)
            let response = try await server.test { client in
                try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                    body: ByteBuffer(bytes: body))
            }
            try #require(response.status == .ok, "\(String(buffer: response.body).prefix(300))")
            let answer = try JSONDecoder().decode(BatchResponse.self, from: Data(response.body.readableBytesView))
            let reasons = Dictionary(
                answer.rejected.map { ($0.id, $0.reason) }, uniquingKeysWith: { first, _ in first })
            let slow = try parser.parse(bytes: [UInt8](body), device: "iphone-42", now: Self.now, scanning: false)
            let slowReasons = Dictionary(
                slow.rejected.map { ($0.id, $0.reason) }, uniquingKeysWith: { first, _ in first })
            let tree = try parser.parse(JSONBody.parse([UInt8](body)), device: "iphone-42", now: Self.now)
            let treeReasons = Dictionary(
                tree.rejected.map { ($0.id, $0.reason) }, uniquingKeysWith: { first, _ in first })
            for (position, index) in chunk.enumerated() {
                let wire = samples[index]
                let (verdict, violation) = expected[index]
                let want = violation.map { "sample \(position): field \"\($0.field)\" \($0.message)" }
                if reasons[wire.id] != want {
                    mismatches.append("HTTP server, \(wire): \(reasons[wire.id] ?? "accepted") ≠ \(verdict)")
                }
                if slowReasons[wire.id] != want {
                    mismatches.append(
                        "parser without scanner, \(wire): \(slowReasons[wire.id] ?? "accepted") ≠ \(verdict)")
                }
                // The field-by-field reader holds numbers as Double: a `t` or `seq` it cannot hold
                // exactly is refused as not a whole number, before any rule.
                if abs(Double(wire.time.milliseconds)) < 1e15, abs(Double(wire.seq)) < 9e15 {
                    if treeReasons[wire.id] != want {
                        mismatches.append(
                            "field-by-field reader, \(wire): \(treeReasons[wire.id] ?? "accepted") ≠ \(verdict)")
                    }
                } else if treeReasons[wire.id] == nil {
                    mismatches.append("field-by-field reader, \(wire): accepted a t or seq it cannot hold exactly")
                }
            }
        }

        // The phone's recording path: the sampling machine's check of the same values as a fix.
        let machine = SamplingMachine(configuration: .init(maximumAccuracy: 2_000_000))
        for (wire, (verdict, violation)) in zip(samples, expected) {
            let fix = LocationFix(
                timestamp: Instant(milliseconds: wire.time.milliseconds), latitude: wire.latitude,
                longitude: wire.longitude,
                horizontalAccuracy: wire.accuracy ?? 10, altitude: wire.altitude, speed: wire.speed, course: wire.course
            )
            let rejection = machine.check(fix, at: Instant(milliseconds: wire.time.milliseconds))
            let finite = [fix.latitude, fix.longitude, fix.horizontalAccuracy, fix.altitude, fix.speed, fix.course]
                .allSatisfy { $0?.isFinite ?? true }
            switch (rejection, verdict) {
            case (.breaksRule(let violation), .accepted):
                mismatches.append("recording path, \(wire): breaks \(violation.code) but the receivers accept it")
            case (_, .refused(let code)) where finite && [.latitude, .longitude, .nullIsland].contains(code):
                // Position comes first in both, after the names only the wire has.
                if let violation, rejection != .breaksRule(violation) {
                    mismatches.append("recording path, \(wire): \(String(describing: rejection)) ≠ \(verdict)")
                }
            default: break
            }
        }

        let counts = tally.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        print("sample rules cross-validator, \(Self.count) samples (\(sendable.count) over HTTP): \(counts)")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
        // Not vacuous: plenty of both outcomes, and most rules broken somewhere.
        #expect((tally[.accepted] ?? 0) > 1_000)
        let refusals = Set(tally.keys.compactMap { if case .refused(let code) = $0 { code } else { nil } })
        #expect(refusals.count >= 12, "rules broken: \(refusals)")
        #expect(Self.count - sendable.count > 100, "some samples must carry NaN or an infinity")
    }

    /// The two decisions the old validators disagreed on (issue 26): accuracy 0 is *unknown*
    /// (accepted, stored without an accuracy), and `seq` starts at 1 (0 is refused), on the
    /// native route as on the phone.
    @Test func accuracyZeroIsUnknownAndSeqZeroIsRefused() async throws {
        let server = try await TestServer()
        let t = (Self.now - .seconds(60)).milliseconds
        let zeroAccuracy = WireSample(
            id: "6f1c0000-0000-4000-8000-00000000a001", seq: 1,
            values: SampleValues(time: Instant(milliseconds: t), latitude: 31.2, longitude: 121.4, accuracy: 0))
        let zeroSeq = WireSample(
            id: "6f1c0000-0000-4000-8000-00000000a002", seq: 0,
            values: SampleValues(time: Instant(milliseconds: t + 1), latitude: 31.2, longitude: 121.4, accuracy: 5))
        #expect(Self.phone(zeroAccuracy).0 == .accepted)
        #expect(Self.phone(zeroSeq).0 == .refused(.seq))
        let body = try JSONEncoder().encode(
            BatchRequest(batch: UUID().wireString, device: "iphone-42", samples: [zeroAccuracy, zeroSeq]))
        let response = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(bytes: body))
        }
        let answer = try JSONDecoder().decode(BatchResponse.self, from: Data(response.body.readableBytesView))
        #expect(answer.accepted == [zeroAccuracy.id])
        #expect(
            answer.rejected.map(\.reason) == [
                #"sample 1: field "seq" seq 0 is below 1; the phone numbers its samples from 1"#
            ])
        let stored = try await server.store.samples(device: "iphone-42", from: .epoch, to: Self.now + .seconds(60))
        #expect(stored.count == 1 && stored.first?.accuracy == nil)
    }
}
