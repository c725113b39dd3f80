import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Testing

@testable import TrackServer

/// Issue 14: concurrent ingest requests share one commit, and each is answered only after it.
///
/// A ``GatedStore`` holds the first commit at a gate, so the requests that arrive meanwhile queue
/// up deterministically; the test then opens the gate and checks the order of commits and answers.
@Suite("Group commit: concurrent uploads share one commit, each answered after it")
struct GroupCommitTests {
    @Test func noRequestIsAnsweredBeforeTheCommitThatHoldsIt() async throws {
        let gate = Gate()
        let log = EventLog()
        let server = try await TestServer(gate: (gate, log))
        let count = 8
        try await server.test { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await Self.postOwnTracks(client, point: 0, log: log) }
                try await Self.eventually("the first commit to start") { await log.entered == 1 }
                for point in 1..<count {
                    group.addTask { try await Self.postOwnTracks(client, point: point, log: log) }
                }
                try await Self.eventually("the others to queue") {
                    server.environment.committer.pendingCount == count - 1
                }
                let early = await log.events.filter { if case .answered = $0 { true } else { false } }
                #expect(early.isEmpty, "answered while their commit was held: \(early)")
                await gate.open()
                try await group.waitForAll()
            }
        }
        // One commit for the first request, one for everything that arrived during it.
        #expect(await log.groupSizes == [1, count - 1])
        for point in 0..<count {
            let committed = try #require(await log.commitIndex(of: Self.key(point)))
            let answered = try #require(await log.answerIndex(of: Self.key(point)))
            #expect(committed < answered, "point \(point) was answered before its commit")
        }
        #expect(try await server.sampleCount() == count)
        let counters = server.environment.committer.counters
        #expect(counters.commits == 2 && counters.requests == count && counters.samples == count)
    }

    /// A device revoked while its upload waited fails in its own savepoint; the uploads that
    /// share its commit are stored and answered 200.
    @Test func aFailingRequestFailsAloneInItsGroup() async throws {
        let gate = Gate()
        let log = EventLog()
        let server = try await TestServer(gate: (gate, log))
        let statuses = try await server.test { client in
            try await withThrowingTaskGroup(of: (Int, HTTPResponse.Status).self) { group in
                group.addTask { (0, try await Self.postOwnTracks(client, point: 0, log: log)) }
                try await Self.eventually("the first commit to start") { await log.entered == 1 }
                for point in 1...3 {
                    let token = point == 2 ? server.otherToken : server.phoneToken
                    group.addTask {
                        (point, try await Self.postOwnTracks(client, point: point, token: token, log: log))
                    }
                }
                try await Self.eventually("three uploads to queue") { server.environment.committer.pendingCount == 3 }
                #expect(try await server.store.revokeDevice(named: "other", at: server.clock.now))
                await gate.open()
                var statuses: [Int: HTTPResponse.Status] = [:]
                for try await (point, status) in group { statuses[point] = status }
                return statuses
            }
        }
        #expect(await log.groupSizes == [1, 3])
        #expect(statuses == [0: .ok, 1: .ok, 2: .internalServerError, 3: .ok])
        #expect(try await server.sampleCount() == 3)
        #expect(try await server.sampleCount("other") == 0)
    }

    @Test func aFullQueueAnswers503WithRetryAfterAndStoresNothing() async throws {
        let gate = Gate()
        let log = EventLog()
        let server = try await TestServer(gate: (gate, log)) { $0.groupCommit.maxPendingRequests = 2 }
        let refused = try await server.test { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                group.addTask { try await Self.postOwnTracks(client, point: 0, log: log) }
                try await Self.eventually("the first commit to start") { await log.entered == 1 }
                for point in 1...2 {
                    group.addTask { try await Self.postOwnTracks(client, point: point, log: log) }
                }
                try await Self.eventually("two uploads to queue") { server.environment.committer.pendingCount == 2 }
                let refused = try await client.executeRequest(
                    uri: "/ingest/owntracks", method: .post,
                    headers: .basic(user: "ana", password: server.phoneToken),
                    body: ByteBuffer(text: Self.ownTracks(3)))
                await gate.open()
                for try await status in group { #expect(status == .ok) }
                return refused
            }
        }
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers[.retryAfter] == "1")
        #expect(refused.text.contains("write queue is full"))
        #expect(try await server.sampleCount() == 3)
        let stored = try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start)
        #expect(!stored.map(\.key).contains(Self.key(3)))
        #expect(server.environment.committer.counters.refused == 1)
    }

    @Test func everyIngestRouteStoresThroughThePipeline() async throws {
        let log = EventLog()
        let server = try await TestServer(gate: (Gate(open: true), log))
        try await server.test { client in
            let requests: [(String, HTTPRequest.Method, HTTPFields, String?)] = [
                ("/v1/batches", .post, .bearer(server.phoneToken), Fixtures.nativeBatch),
                ("/ingest/overland", .post, .bearer(server.phoneToken), Fixtures.overland),
                (
                    "/ingest/owntracks", .post, .basic(user: "ana", password: server.phoneToken),
                    Fixtures.ownTracksLocation
                ),
                ("/ingest/osmand?\(Fixtures.osmAndQuery)", .get, [:], nil),
            ]
            for (uri, method, headers, body) in requests {
                let response = try await client.executeRequest(
                    uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(text: $0) })
                #expect(response.status == .ok, "\(uri)")
            }
        }
        let singles = await log.events.filter { if case .singleInsert = $0 { true } else { false } }
        #expect(singles.isEmpty)
        #expect(await log.groupSizes == [2, 3, 1, 1])
        #expect(server.environment.committer.counters.requests == 4)
    }

    /// `--group-commit off`: the baseline, one transaction per request through `insert`.
    @Test func switchedOffEveryRequestCommitsAlone() async throws {
        let log = EventLog()
        let server = try await TestServer(gate: (Gate(open: true), log)) { $0.groupCommit.enabled = false }
        try await server.test { client in
            for point in 0..<3 {
                let status = try await Self.postOwnTracks(client, point: point, log: log)
                #expect(status == .ok)
            }
        }
        #expect(await log.entered == 0)
        #expect(await log.groupSizes == [1, 1, 1])
        #expect(try await server.sampleCount() == 3)
    }

    @Test func metricsCountCommitsAndRequests() async throws {
        let log = EventLog()
        let server = try await TestServer(gate: (Gate(open: true), log))
        let text = try await server.test { client in
            _ = try await Self.postOwnTracks(client, point: 0, log: log)
            return try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil).text
        }
        #expect(text.contains("bgtrack_group_commits_total 1"))
        #expect(text.contains("bgtrack_group_commit_requests_total 1"))
        #expect(text.contains("bgtrack_group_commit_samples_total 1"))
    }

    // MARK: - Helpers

    static func ownTracks(_ point: Int) -> String {
        "{\"_type\":\"location\",\"lat\":48.8566,\"lon\":2.3522,\"tst\":\(1_732_240_000 + point),\"acc\":10}"
    }

    static func key(_ point: Int) -> String {
        TrackSample.positionKey(
            time: Instant(milliseconds: Int64(1_732_240_000 + point) * 1000), latitude: 48.8566, longitude: 2.3522)
    }

    /// Posts OwnTracks point `point` and logs the answer (under the point's key) when it arrives.
    @discardableResult
    static func postOwnTracks(
        _ client: some TestClientProtocol, point: Int, token: String = TestServer.phoneToken, log: EventLog
    ) async throws -> HTTPResponse.Status {
        let response = try await client.executeRequest(
            uri: "/ingest/owntracks", method: .post, headers: .basic(user: "ana", password: token),
            body: ByteBuffer(text: ownTracks(point)))
        await log.append(.answered(key(point)))
        return response.status
    }

    /// Waits, yielding (never sleeping), until `condition` holds; fails after a bounded number of turns.
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<1_000_000 {
            if try await condition() { return }
            await Task.yield()
        }
        Issue.record("gave up waiting for \(what)")
        throw CancellationError()
    }
}
