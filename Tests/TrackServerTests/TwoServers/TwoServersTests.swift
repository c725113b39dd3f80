import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Logging
import Testing
import TrackServer
import TrackServerPostgres

/// Two `bgtrack serve` applications, each with its own connection pool, on one PostgreSQL schema:
/// what operators run when one server is not enough.
@Suite("Two servers on one PostgreSQL")
struct TwoServersTests {
    static let phoneToken = "bgd_two-servers-phone"

    /// Runs `body` with two in-process servers on one fresh schema that has the device `phone`.
    func withTwoServers(
        _ body:
            @Sendable (_ first: any TestClientProtocol, _ second: any TestClientProtocol, PostgresTrackStore)
            async throws -> Void
    ) async throws {
        let configuration = try PostgresTestDatabase.freshConfiguration()
        let clock = ManualTime(TestServer.start)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        try await PostgresTestDatabase.withSchema(configuration) {
            try await PostgresTrackStore.withStore(configuration, logger: PostgresTestDatabase.logger) { one in
                try await PostgresTrackStore.withStore(configuration, logger: PostgresTestDatabase.logger) { two in
                    _ = try await one.addDevice(name: "phone", tokenHash: Tokens.hash(Self.phoneToken), at: clock.now)
                    func app(_ store: PostgresTrackStore) -> some ApplicationProtocol {
                        let environment = TrackServerEnvironment(
                            store: store, clock: clock.serverClock, configuration: ServerConfiguration(),
                            logger: logger)
                        return Application(router: buildRouter(environment), logger: logger)
                    }
                    let (firstApp, secondApp) = (app(one), app(two))
                    try await firstApp.test(.router) { first in
                        try await secondApp.test(.router) { second in
                            try await body(first, second, two)
                        }
                    }
                }
            }
        }
    }

    /// The UUID of sample `n`: the phone mints one per sample (never the nil UUID, and seq starts at 1).
    static func id(_ n: Int) -> String {
        let digits = String(n + 1)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// A native batch of the samples numbered `numbers` (one second apart).
    static func batch(_ numbers: Range<Int>) -> ByteBuffer {
        let samples = numbers.map { n in
            #"{"id":"\#(id(n))","seq":\#(n + 1),"t":\#(1_732_240_000_000 + Int64(n) * 1000),"lat":31.2,"lon":121.4}"#
        }
        return ByteBuffer(
            string: #"{"batch":"b\#(numbers.lowerBound)","samples":[\#(samples.joined(separator: ","))]}"#)
    }

    /// The ids the server acknowledged as new; a rejected sample fails the test.
    static func accepted(_ response: TestResponse) throws -> [String] {
        let body = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        #expect((body?["rejected"] as? [Any])?.isEmpty == true, "\(String(buffer: response.body).prefix(300))")
        return try #require(body?["accepted"] as? [String])
    }

    @Test(.postgres) func theSameAndDifferentBatchesThroughBothAreStoredExactlyOnce() async throws {
        try await withTwoServers { first, second, store in
            // Batches of 40 overlapping by half; each is sent through both servers at once.
            let batches = (0..<12).map { ($0 * 20)..<($0 * 20 + 40) }
            let accepted = try await withThrowingTaskGroup(of: [String].self) { group in
                for batch in batches {
                    for client in [first, second] {
                        group.addTask {
                            let response = try await client.executeRequest(
                                uri: "/v1/batches", method: .post, headers: .bearer(Self.phoneToken),
                                body: Self.batch(batch))
                            #expect(response.status == .ok)
                            return try Self.accepted(response)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let expected = Set((0..<260).map(Self.id))
            #expect(accepted.count == expected.count, "every sample acknowledged as new exactly once")
            #expect(Set(accepted) == expected)
            let stored = try await store.samples(device: "phone", from: .epoch, to: TestServer.start).compactMap(\.id)
            #expect(stored.count == expected.count, "no sample stored twice")
            #expect(Set(stored) == expected, "no acknowledged sample lost")
        }
    }

    @Test(.postgres) func aSessionFromOneWorksOnTheOtherAndItsRevocationToo() async throws {
        try await withTwoServers { first, second, _ in
            let login = try await first.executeRequest(
                uri: "/v1/sessions", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"device":"phone","token":"\#(Self.phoneToken)"}"#))
            #expect(login.status == .created)
            let body = try JSONSerialization.jsonObject(with: Data(login.body.readableBytesView)) as? [String: Any]
            let session = try #require(body?["token"] as? String)
            let beat = try await second.executeRequest(
                uri: "/v1/sessions/heartbeat", method: .post, headers: .bearer(session), body: nil)
            #expect(beat.status == .ok, "a session created through one server is seen by the other")
            let upload = try await second.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(session), body: Self.batch(0..<3))
            #expect(upload.status == .ok)
            let logout = try await second.executeRequest(
                uri: "/v1/sessions", method: .delete, headers: .bearer(session), body: nil)
            #expect(logout.status == .noContent)
            let refused = try await first.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(session), body: Self.batch(3..<6))
            #expect(refused.status == .unauthorized, "a revocation through one server refuses on the other")
            let heartbeat = try await first.executeRequest(
                uri: "/v1/sessions/heartbeat", method: .post, headers: .bearer(session), body: nil)
            #expect(heartbeat.status == .unauthorized)
        }
    }

    @Test(.postgres) func aDeviceRevokedThroughOneStoreIsRefusedByBothServers() async throws {
        try await withTwoServers { first, second, store in
            let before = try await first.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(Self.phoneToken), body: Self.batch(0..<2))
            #expect(before.status == .ok)
            // `bgtrack device revoke --postgres …` from a third process does this.
            #expect(try await store.revokeDevice(named: "phone", at: TestServer.start))
            for client in [first, second] {
                let after = try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(Self.phoneToken), body: Self.batch(2..<4))
                #expect(after.status == .unauthorized)
            }
        }
    }
}
