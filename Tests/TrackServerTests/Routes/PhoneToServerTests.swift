import BackgroundCore
import Foundation
import Hummingbird
import HummingbirdTesting
import LinuxDevice
import LocationLog
import LocationLogTesting
import Testing
import TrackServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// End to end: the phone's real store and sync engine, over URLSession and a real socket, into the
/// server. The two halves agree on the wire format, and nothing is lost or stored twice.
@Suite("Phone to server over HTTP")
struct PhoneToServerTests {
    @Test func aBacklogArrivesOnceAndLeavesThePhoneOnlyWhenAcknowledged() async throws {
        let server = try await TestServer()
        let app = server.liveApp
        let phone = try LocationStore.inMemory()
        var time = TestServer.start - .seconds(3 * 3600)
        for index in 0..<1_200 {
            let fix = LocationFix(
                timestamp: time, latitude: 31.2304 + Double(index) * 1e-5, longitude: 121.4737,
                horizontalAccuracy: 8, altitude: 4, speed: 1.2, course: 90)
            try phone.append(fix, trigger: .timer, state: .background, power: .init(battery: 0.8, charging: false))
            time += .seconds(9)
        }
        let clock = ManualTime(TestServer.start)
        let (reports, pendingAfter) = try await app.testLive { client in
            let port = try #require(client.port)
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let engine = try SyncEngine(
                store: phone, transport: URLSessionBatchTransport(server: base, token: server.phoneToken),
                device: "iphone-42", seed: 3, now: { clock.now })
            let first = try await engine.wake()
            let pendingBetween = try phone.pendingCount()
            clock.advance(by: .seconds(1800))
            let second = try await engine.wake()
            return ([first, second], [pendingBetween, try phone.pendingCount()])
        }
        #expect(reports[0].outcomes.count == 2, "a full backlog goes at once, 500 + 500")
        #expect(reports[0].deleted == 1_000)
        #expect(pendingAfter[0] == 200, "the rest waits for the upload interval")
        #expect(reports[1].deleted == 200)
        #expect(pendingAfter[1] == 0)
        #expect(try await server.sampleCount() == 1_200)
    }

    @Test func aLostAcknowledgementResendsWithoutDuplicatesAndARevokedTokenHoldsEverything() async throws {
        let server = try await TestServer()
        let app = server.liveApp
        let phone = try LocationStore.inMemory()
        for index in 0..<10 {
            let fix = LocationFix(
                timestamp: TestServer.start - .seconds(Int64(600 - index * 60)), latitude: 31.23, longitude: 121.47,
                horizontalAccuracy: 10)
            try phone.append(fix, trigger: .timer, state: .foreground)
        }
        let batch = try phone.oldestPending(limit: 10)
        let request = BatchRequest(
            batch: BatchRequest.batchID(for: batch.map(\.id)), device: "iphone-42", samples: batch)
        let (firstTry, resend, revoked) = try await app.testLive { client in
            let port = try #require(client.port)
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let transport = URLSessionBatchTransport(server: base, token: server.phoneToken)
            let first = await transport.send(request)  // its answer is "lost": the phone keeps everything
            let second = await transport.send(request)
            _ = try await server.store.revokeDevice(named: "iphone-42", at: server.clock.now)
            return (first, second, await transport.send(request))
        }
        guard case .acknowledged(let ack1) = firstTry, case .acknowledged(let ack2) = resend else {
            Issue.record("expected two acknowledgements, got \(firstTry) and \(resend)")
            return
        }
        #expect(ack1.stored.count == 10 && ack2.stored.count == 10, "duplicates are acknowledged as stored")
        #expect(try await server.sampleCount() == 10, "stored once")
        guard case .unauthorized(let status, _) = revoked else {
            Issue.record("a revoked token must answer 401/403, got \(revoked)")
            return
        }
        #expect([401, 403].contains(status))
        #expect(try phone.pendingCount() == 10, "the phone deletes nothing itself; only an acknowledgement does")
    }
}
