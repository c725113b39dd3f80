import BackgroundCore
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import LocationLogTesting
import Testing

@testable import TrackServer

/// A full disk is an answer (issue 41 item 2): on a database file whose writes fail with
/// `SQLITE_FULL` (SQLite's own refusal: `PRAGMA max_page_count` held at the current size), a write
/// is answered 503 with `Retry-After` and a message naming the disk, `/healthz` says degraded and
/// why, `/metrics` counts it with the free space, and every read (map, track, share page) works,
/// because no read path writes.
@Suite("A full disk: 503 with Retry-After, degraded health, reads that still work")
struct FullDiskTests {
    /// A server on a file in a fresh directory with three days of a walk worked out by the
    /// ``DetailWorker``, and a share link; then the database is held at its size.
    static func fullServer(_ configure: @escaping (inout ServerConfiguration) -> Void = { _ in })
        async throws -> (TestServer, directory: URL, share: String)
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("full-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let server = try await TestServer(file: (directory.appendingPathComponent("tracks.sqlite").path, nil)) {
            $0.dataDirectory = directory.path
            configure(&$0)
        }
        var samples: [TrackSample] = []
        for day in 0..<3 {
            samples += DetailContract.walk(90, minute: 8 * 60, prefix: "d\(day)-", dayOffset: Int64(day))
        }
        _ = try await server.store.insert(samples, device: "iphone-42", at: server.clock.now)
        #expect(try await DetailWorker(environment: server.environment).workPending() == 4)
        let secret = ShareSecret.mint()
        _ = try await server.store.createShare(
            NewShareLink(
                device: "iphone-42", kind: .live, secretHash: Tokens.hash(secret),
                expiresAt: server.clock.now + .seconds(86_400), createdBy: "ops"), at: server.clock.now)
        try await server.store.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        return (server, directory, "/s/\(secret)")
    }

    /// 500 new samples (2024-11-20, before the server's clock): more than the free room of the
    /// database's last pages.
    static func bigBatch() -> String {
        let samples = (0..<500).map { index in
            #"{"id":"\#(UUID().uuidString)","seq":\#(index + 1),"t":\#(1_732_100_000_000 + Int64(index) * 60_000),"lat":31.2,"lon":121.4,"acc":5}"#
        }
        return #"{"batch":"full","device":"iphone-42","samples":[\#(samples.joined(separator: ","))]}"#
    }

    @Test func aWriteRefusedForSpaceIs503WithRetryAfterAndSaysWhy() async throws {
        let (server, directory, _) = try await Self.fullServer()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try await server.sampleCount()
        let (upload, health, metrics) = try await server.test { client in
            (
                try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                    body: ByteBuffer(text: Self.bigBatch())),
                try await client.executeRequest(uri: "/healthz", method: .get, headers: [:], body: nil),
                try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil)
            )
        }
        #expect(upload.status == .serviceUnavailable, "\(upload.text)")
        #expect(upload.headers[.retryAfter] == "\(StorageHealth.retryAfterSeconds)")
        #expect(upload.text.contains("disk is full") && upload.text.contains("nothing of this request was stored"))
        #expect(try await server.sampleCount() == before, "a refused request writes nothing")
        #expect(health.status == .ok)
        let body = try #require(health.json as? [String: Any])
        #expect(body["status"] as? String == "degraded")
        let reasons = try #require(body["reasons"] as? [String])
        #expect(reasons.count == 1 && reasons[0].contains("refused for lack of space"), "\(reasons)")
        #expect((body["freeBytes"] as? Int64 ?? (body["freeBytes"] as? Int).map(Int64.init) ?? 0) > 0)
        #expect(metrics.text.contains("bgtrack_storage_full_total 1"))
        #expect(metrics.text.contains("bgtrack_storage_free_bytes "))
        #expect(metrics.text.contains(#"bgtrack_http_requests_total{method="POST",status="503"} 1"#))
    }

    @Test func everyReadWorksOnAFullDisk() async throws {
        let (server, directory, share) = try await Self.fullServer()
        defer { try? FileManager.default.removeItem(at: directory) }
        let range =
            "from=\(DetailContract.day.milliseconds)&to=\((DetailContract.day + .seconds(3 * 86_400)).milliseconds)"
        let (map, track, page, upload) = try await server.test { client in
            (
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/map?\(range)", method: .get, headers: .bearer(server.operatorToken),
                    body: nil),
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/track?\(range)&format=csv", method: .get,
                    headers: .bearer(server.operatorToken), body: nil),
                try await client.executeRequest(uri: share, method: .get, headers: [:], body: nil),
                try await client.executeRequest(
                    uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                    body: ByteBuffer(text: Self.bigBatch()))
            )
        }
        #expect(map.status == .ok, "\(map.text)")
        #expect((map.json as? [String: Any])?["points"] as? Int == 270)
        #expect(track.status == .ok && track.text.split(separator: "\n").count == 271)
        #expect(page.status == .ok, "the share page's view count is not worth refusing the page for")
        #expect(upload.status == .serviceUnavailable)
    }

    /// A map read writes nothing: the pending day stays pending until the ``DetailWorker`` works it
    /// out, and the map draws what was worked out before.
    @Test func aMapReadLeavesPendingDaysToTheWorker() async throws {
        let server = try await TestServer()
        _ = try await server.store.insert(
            DetailContract.walk(90, minute: 8 * 60, prefix: "a-"), device: "iphone-42", at: server.clock.now)
        let range = "from=\(DetailContract.day.milliseconds)&to=\((DetailContract.day + .seconds(86_400)).milliseconds)"
        func points() async throws -> Int? {
            try await server.test { client in
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/map?\(range)", method: .get, headers: .bearer(server.operatorToken),
                    body: nil)
            }.json.flatMap { ($0 as? [String: Any])?["points"] as? Int }
        }
        let pending = try await server.store.pendingDetailDays()
        #expect(pending == 2)
        #expect(try await points() == 0, "not worked out yet: nothing drawn, nothing written")
        #expect(try await server.store.pendingDetailDays() == pending)
        #expect(try await DetailWorker(environment: server.environment).workPending() == 2)
        #expect(try await points() == 90)
    }

    /// An import marks its days for the worker too (it did not: imported history never reached the
    /// year map), and the map draws it once the worker has run.
    @Test func anImportIsDrawnOnceTheWorkerHasRun() async throws {
        let server = try await TestServer()
        let added = try await server.store.commitImport(
            DetailContract.walk(90, minute: 8 * 60, prefix: "imp-"), device: "iphone-42",
            checkpoint: ImportCheckpoint(fingerprint: "f", format: "gpx"), at: server.clock.now)
        #expect(added == 90)
        #expect(try await server.store.pendingDetailDays() == 2)
        #expect(try await DetailWorker(environment: server.environment).workPending() == 2)
        let drawn = try await server.store.drawnCount(
            device: "iphone-42", from: DetailContract.day, to: DetailContract.day + .seconds(86_400), zoom: 20,
            atMost: 1_000)
        #expect(drawn == 90)
    }

    @Test func lowFreeSpaceAloneMakesHealthDegraded() async throws {
        let (server, directory, _) = try await Self.fullServer { $0.minimumFreeBytes = .max }
        defer { try? FileManager.default.removeItem(at: directory) }
        let health = try await server.test { client in
            try await client.executeRequest(uri: "/healthz", method: .get, headers: [:], body: nil)
        }
        let body = try #require(health.json as? [String: Any])
        #expect(body["status"] as? String == "degraded")
        #expect((body["reasons"] as? [String])?.first?.contains("below the") == true, "\(body)")
        #expect(StorageHealth.isFull(DatabaseError(resultCode: .SQLITE_FULL)))
        #expect(!StorageHealth.isFull(DatabaseError(resultCode: .SQLITE_CONSTRAINT)))
    }
}
