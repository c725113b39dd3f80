import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import LocationLogTesting
import Logging
import NIOCore
import Testing
import TrackGeometry

@testable import TrackServer

/// Track reads stream (issue 23 item 2): the bytes are those of the whole-track exports, the
/// limit is checked before a row is read, and at most `maxConcurrentReads` reads run at once.
@Suite("Reading: streamed track exports, the limit before the read, the bound on concurrent reads")
struct TrackStreamingTests {
    static let gap = Duration.seconds(600)

    /// A track with every shape a segment can have: two long segments, a lone point between them
    /// (a `Point`, not a line, in GeoJSON), two samples at the same time, unknown fields, a
    /// coordinate whose polyline holds a `\`, and a lone point at the end.
    static func track() -> [TrackSample] {
        var samples: [TrackSample] = []
        var time: Int64 = 1_732_240_000_000
        func add(_ latitude: Double, _ longitude: Double, accuracy: Double? = 8, altitude: Double? = nil) {
            samples.append(
                TrackSample(
                    key: "k\(samples.count)",
                    values: SampleValues(
                        time: Instant(milliseconds: time), latitude: latitude, longitude: longitude, accuracy: accuracy,
                        altitude: altitude, speed: 1.5, course: nil, battery: nil, charging: nil), trigger: nil,
                    state: nil, source: .native))
        }
        for index in 0..<40 {
            add(31.2304 + Double(index) * 0.0003, 121.4737 + sin(Double(index)) * 0.0004, altitude: 4)
            time += 120_000
        }
        add(31.2500, 121.5000)  // same time as the previous one
        time += 3_600_000
        add(-0.00001, 0.00004, accuracy: nil)  // alone: a gap on each side
        time += 3_600_000
        for index in 0..<25 {
            add(48.85 + Double(index) * 0.001, 2.35 - Double(index % 3) * 0.0007)
            time += 60_000
        }
        time += 3_600_000
        add(51.5, -0.12)
        return samples
    }

    static func seededStore() async throws -> SQLiteTrackStore {
        let store = try SQLiteTrackStore.inMemory()
        _ = try await store.addDevice(name: "p", tokenHash: "h", at: Instant(milliseconds: 0))
        _ = try await store.insert(track(), device: "p", at: Instant(milliseconds: 0))
        return store
    }

    /// What the route answered before it streamed: the whole track read, cut, simplified and
    /// exported in one piece.
    static func wholeTrackBody(
        _ format: TrackQuery.Format, simplify: Double?, name: String, localTime: ExportLocalTime = .utc
    ) -> String {
        let points = track().sorted { $0.time < $1.time }.map(\.values)
        var segments = Gaps.segments(of: points, maximumGap: gap)
        if let simplify { segments = segments.map { Simplification.douglasPeucker($0, tolerance: simplify) } }
        switch format {
        case .geojson: return TrackExport.geoJSON(segments, localTime: localTime)
        case .gpx: return TrackExport.gpx(segments, name: name, localTime: localTime)
        case .csv: return TrackExport.csv(segments, localTime: localTime)
        case .polyline:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(["segments": segments.map { EncodedPolyline.encode($0) }])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// The streamed body, written to a collecting writer, pages and windows as small as asked.
    static func streamedBody(
        _ store: any TrackStore, _ format: TrackQuery.Format, simplify: Double?, pageSize: Int, window: Int,
        flushBytes: Int
    ) async throws -> String {
        let from = Instant(milliseconds: 0)
        let to = Instant(milliseconds: 1_800_000_000_000)
        let reader = TrackReader(
            store: store, device: "p", from: from, to: to, maximumGap: gap, simplify: simplify, pageSize: pageSize,
            window: window)
        let body = TrackBody(
            reader: reader, format: format, name: "p <&>",
            segmentCount: try await store.segmentCount(device: "p", from: from, to: to, maximumGap: gap),
            flushBytes: flushBytes)
        var writer: any ResponseBodyWriter = CollectingWriter()
        try await body.write(to: &writer)
        return (writer as? CollectingWriter)?.collected.text ?? ""
    }

    @Test(arguments: TrackQuery.Format.allCases, [nil, 5.0])
    func streamedBytesEqualTheWholeTrackExport(format: TrackQuery.Format, simplify: Double?) async throws {
        let store = try await Self.seededStore()
        let expected = Self.wholeTrackBody(format, simplify: simplify, name: "p <&>")
        #expect(expected.count > 200)
        // One page for everything, and pages of 1 and 7 points cut anywhere (in a segment, at a
        // gap, between the two samples of one time), flushed every few bytes.
        for (pageSize, flushBytes) in [(4096, 1 << 16), (1, 1), (7, 100)] {
            let streamed = try await Self.streamedBody(
                store, format, simplify: simplify, pageSize: pageSize, window: 1000, flushBytes: flushBytes)
            #expect(streamed == expected, "page \(pageSize), flush \(flushBytes)")
        }
    }

    @Test func theRouteStreamsTheSameBytes() async throws {
        // The track alone: with the timeline on, GeoJSON and GPX also carry the stays and trips
        // (TimelineRouteTests checks those). Local times in the server's zone, New York's.
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let server = try await TestServer {
            $0.timelineEnabled = false
            $0.timeZone = zone
        }
        _ = try await server.store.insert(Self.track(), device: "iphone-42", at: TestServer.start)
        for format in TrackQuery.Format.allCases {
            let response = try await server.test { client in
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/track?from=0&to=1800000000000&format=\(format.rawValue)",
                    method: .get, headers: .bearer(server.phoneToken), body: nil)
            }
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == format.contentType)
            let expected = Self.wholeTrackBody(
                format, simplify: nil, name: "iphone-42", localTime: ExportLocalTime(zone: zone))
            #expect(response.text == expected)
            #expect(format == .polyline || expected.contains("-05:00"))
        }
    }

    /// A segment longer than the simplification window is simplified a window at a time: the
    /// windows' ends are kept, and every dropped point is within the tolerance of the kept
    /// segment that spans it, as whole-segment Douglas–Peucker promises.
    @Test func windowedSimplificationKeepsEveryDroppedPointWithinTolerance() async throws {
        let store = try await Self.seededStore()
        let tolerance = 5.0
        let csv = try await Self.streamedBody(
            store, .csv, simplify: tolerance, pageSize: 3, window: 6, flushBytes: 1)
        let kept = csv.split(separator: "\n").dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return (time: Int64(cells[1]) ?? -1, latitude: Double(cells[3]) ?? 0, longitude: Double(cells[4]) ?? 0)
        }
        let all = Self.track().sorted { $0.time < $1.time }
        #expect(kept.first?.time == all.first?.time.milliseconds)
        #expect(kept.last?.time == all.last?.time.milliseconds)
        #expect(kept.count < all.count)
        let keptTimes = Set(kept.map(\.time))
        for segment in Gaps.segments(of: all.map(\.values), maximumGap: Self.gap) where segment.count > 1 {
            let plane = LocalProjection(segment)
            var previous = segment[0]
            var dropped: [SampleValues] = []
            for point in segment.dropFirst() {
                guard keptTimes.contains(point.time.milliseconds) else {
                    dropped.append(point)
                    continue
                }
                for lost in dropped {
                    let distance = Simplification.segmentDistance(
                        plane.project(lost), plane.project(previous), plane.project(point))
                    #expect(distance <= tolerance + 1e-6)
                }
                dropped = []
                previous = point
            }
            #expect(dropped.isEmpty, "a segment's last point is kept")
        }
    }

    /// Over the limit, the answer is a 400 decided from a bounded count of the index: no row is
    /// read, for the export and for the map page alike.
    @Test func aRangeOverTheLimitIsRefusedBeforeAnyRowIsRead() async throws {
        let log = EventLog()
        let server = try await TestServer(gate: (Gate(open: true), log)) { $0.maxTrackPoints = 10 }
        _ = try await server.store.insert(Self.track(), device: "iphone-42", at: TestServer.start)
        let (track, map, small) = try await server.test { client in
            (
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/track?from=0&to=1800000000000&format=csv", method: .get,
                    headers: .bearer(server.phoneToken), body: nil),
                try await client.executeRequest(
                    uri: "/devices/iphone-42?day=2024-11-22", method: .get, headers: .bearer(server.phoneToken),
                    body: nil),
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/track?from=1732240000000&to=1732240600000&format=csv", method: .get,
                    headers: .bearer(server.phoneToken), body: nil)
            )
        }
        #expect(track.status == .badRequest)
        #expect((track.json as? [String: String])?["error"]?.contains("more than 10 samples") == true)
        #expect(map.status == .badRequest)
        #expect(small.status == .ok && small.text.split(separator: "\n").count == 1 + 5)
        #expect(await log.rowsRead == 5, "only the small range's rows were read")
        #expect(server.environment.readLimiter.running == 0)
    }

    /// `maxConcurrentReads` reads stream at once; the next is a 503 with `Retry-After` at once (it
    /// does not wait), and a place frees when a read ends.
    @Test func readsBeyondTheBoundAre503WithRetryAfter() async throws {
        let base = try SQLiteTrackStore.inMemory()
        _ = try await base.addDevice(name: "p", tokenHash: Tokens.hash("bgd_p"), at: TestServer.start)
        _ = try await base.insert(Self.track(), device: "p", at: TestServer.start)
        let readGate = Gate()
        let log = EventLog()
        var configuration = ServerConfiguration()
        configuration.leafletDirectory = nil
        configuration.maxConcurrentReads = 2
        // The test counts the store's reads: no timeline reading behind them.
        configuration.timelineEnabled = false
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let environment = TrackServerEnvironment(
            store: GatedStore(base: base, gate: Gate(open: true), log: log, readGate: readGate),
            clock: ManualTime(TestServer.start).serverClock, configuration: configuration, logger: quiet)
        let app = Application(router: buildRouter(environment), logger: quiet)
        let uri = "/v1/devices/p/track?from=0&to=1800000000000&format=gpx"
        try await app.test(.router) { client in
            try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await client.executeRequest(uri: uri, method: .get, headers: .bearer("bgd_p"), body: nil)
                    }
                }
                // Both hold their place, waiting at the read gate (no time passes: only tasks run).
                while environment.readLimiter.running < 2 { await Task.yield() }
                let refused = try await client.executeRequest(
                    uri: uri, method: .get, headers: .bearer("bgd_p"), body: nil)
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.headers[.retryAfter] == "1")
                #expect((refused.json as? [String: String])?["error"]?.contains("--max-concurrent-reads") == true)
                await readGate.open()
                for try await response in group {
                    #expect(response.status == .ok && response.text.hasSuffix("</gpx>\n"))
                }
            }
            #expect(environment.readLimiter.running == 0)
            #expect(environment.readLimiter.refused == 1)
            let after = try await client.executeRequest(uri: uri, method: .get, headers: .bearer("bgd_p"), body: nil)
            #expect(after.status == .ok)
        }
    }

    @Test func theLastReadOfABurstTrimsTheHeapOnceAndADroppedPermitFreesItsPlace() throws {
        let trims = Counter()
        let limiter = ReadLimiter(limit: 2) { trims.add() }
        let first = try limiter.acquire()
        do {
            _ = try limiter.acquire()  // dropped at once: its place frees, and the heap is not idle yet
        }
        #expect(limiter.running == 1 && trims.value == 0)
        let second = try limiter.acquire()
        #expect(throws: APIError.self) { try limiter.acquire() }
        first.release()
        first.release()  // twice is once
        #expect(limiter.running == 1 && trims.value == 0)
        second.release()
        #expect(limiter.running == 0 && trims.value == 1)
    }
}

/// Counts calls. Lock-guarded, hence `@unchecked Sendable`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A response body writer that keeps what it is given.
struct CollectingWriter: ResponseBodyWriter {
    final class Storage: @unchecked Sendable {
        // Written by one task at a time (the body writer), read after it finished.
        var buffer = ByteBuffer()
    }
    let storage = Storage()
    var collected: ByteBuffer { storage.buffer }

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        storage.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension ByteBuffer {
    var text: String { String(buffer: self) }
}
