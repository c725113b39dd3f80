import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import LocationLogTesting
import Logging
import Testing
import TrackGeometry

@testable import TrackServer

/// Issue 38 item 1: a device's timeline is a function of its stored points, whatever order and
/// path they arrived by (live batches, single points, imports of older history after newer live
/// data, duplicates, restarts in between), and a read reflects every point stored before it.
@Suite("Timeline: one timeline per set of points")
struct TimelineArrivalOrderTests {
    static let device = "iphone-42"
    static let day = Instant(milliseconds: 1_732_233_600_000)  // 2024-11-22T00:00Z
    static let far = Instant(milliseconds: Int64.max / 2)

    /// One point of the set: a whole second (OwnTracks sends seconds), a position, an accuracy.
    struct Point: Sendable {
        var index: Int
        var time: Instant
        var latitude: Double
        var longitude: Double
        var accuracy: Int
    }

    /// `hours` of a person's life from `start`, a point every 2 minutes (a few seconds off):
    /// home, a walk, the office, a silent hour and a move, a drive, a park, a second silence at
    /// the same place, home again. Every point at its own second.
    static func points(hours: Int = 10, start: Instant = day, seed: UInt64 = 7) -> [Point] {
        var random = SeededRandom(seed: seed)
        var points: [Point] = []
        var minute: Int64 = 0
        let end = Int64(hours) * 60
        func add(north: Double, east: Double, accuracy: Int? = nil) {
            let second = minute * 60 + Int64(random.uniform(0...20))
            points.append(
                Point(
                    index: points.count, time: start + .seconds(second), latitude: 31.2 + north / 111_320,
                    longitude: 121.4 + east / 95_000, accuracy: accuracy ?? Int(random.uniform(5...30))))
        }
        while minute < end {
            let phase = minute % 600
            switch phase {
            case 0..<90: add(north: random.uniform(-15...15), east: random.uniform(-15...15))  // home
            case 90..<120: add(north: Double(phase - 90) * 84, east: 0)  // walking
            case 120..<200:
                // The office, one coarse fix that may still be there.
                add(north: 2520 + random.uniform(-10...10), east: 0, accuracy: phase == 150 ? 150 : nil)
            case 200..<260: minute += 60 - 2  // silent an hour, then elsewhere
            case 260..<300: add(north: 9000 + random.uniform(-10...10), east: 0)
            case 300..<330: add(north: 9000 - Double(phase - 300) * 500, east: Double(phase - 300) * 300)  // driving
            case 330..<400: add(north: -6000 + random.uniform(-20...20), east: 9000)  // a park
            case 400..<430: minute += 30 - 2  // silent at the park
            case 430..<470: add(north: -6000 + random.uniform(-20...20), east: 9000, accuracy: phase == 440 ? 900 : nil)
            default: add(north: random.uniform(-15...15), east: random.uniform(-15...15))  // home
            }
            minute += 2
        }
        return points
    }

    // MARK: - The paths a point can take

    static func nativeBatch(_ points: [Point], batch: String) -> String {
        let samples = points.map { point in
            let id = String(format: "00000000-0000-4000-8000-%012d", point.index + 1)
            return #"{"id":"\#(id)","seq":\#(point.index + 1),"t":\#(point.time.milliseconds),"#
                + #""lat":\#(point.latitude),"lon":\#(point.longitude),"acc":\#(point.accuracy)}"#
        }
        return #"{"batch":"\#(batch)","device":"\#(device)","samples":[\#(samples.joined(separator: ","))]}"#
    }

    static func ownTracks(_ point: Point) -> String {
        #"{"_type":"location","tid":"ip","tst":\#(point.time.milliseconds / 1000),"#
            + #""lat":\#(point.latitude),"lon":\#(point.longitude),"acc":\#(point.accuracy)}"#
    }

    /// A GeoJSON file of `points`, as `POST /v1/devices/{id}/imports` and `bgtrack import` read it.
    static func geoJSON(_ points: [Point]) -> String {
        let features = points.map { point in
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(point.longitude),\#(point.latitude)]},"#
                + #""properties":{"time":"\#(point.time.iso8601)","accuracy":\#(point.accuracy)}}"#
        }
        return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }

    /// One server's lifetime over `store`: its own environment (a restart starts another).
    struct Server {
        let environment: TrackServerEnvironment
        let router: Router<TrackRequestContext>

        init(store: SQLiteTrackStore, clock: ManualTime) {
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            var configuration = ServerConfiguration()
            configuration.leafletDirectory = nil
            environment = TrackServerEnvironment(
                store: store, clock: clock.serverClock, configuration: configuration, logger: logger)
            router = buildRouter(environment)
        }

        var app: some ApplicationProtocol { Application(router: router, logger: environment.logger) }

        var timeline: TimelineUpdater {
            get throws { try #require(environment.timeline) }
        }

        func post(_ uri: String, _ body: String, headers: HTTPFields) async throws {
            let response = try await app.test(.router) { client in
                try await client.executeRequest(uri: uri, method: .post, headers: headers, body: ByteBuffer(text: body))
            }
            #expect(response.status == .ok, "\(uri): \(response.text)")
        }

        func native(_ points: [Point], batch: String) async throws {
            try await post("/v1/batches", nativeBatch(points, batch: batch), headers: .bearer(TestServer.phoneToken))
        }

        func ownTracks(_ point: Point) async throws {
            try await post(
                "/ingest/owntracks", TimelineArrivalOrderTests.ownTracks(point),
                headers: .basic(user: device, password: TestServer.phoneToken))
        }

        func importFile(_ points: [Point]) async throws {
            try await post(
                "/v1/devices/\(device)/imports", geoJSON(points), headers: .bearer(TestServer.phoneToken))
        }

        /// The timeline as a read answers it: closed entries, then the open one.
        func read() async throws -> [TimelineEntry] {
            let found = try await timeline.timeline(device: device, from: .epoch, to: far)
            return found.closed + found.provisional
        }
    }

    static func makeStore() async throws -> SQLiteTrackStore {
        let store = try SQLiteTrackStore.inMemory()
        _ = try await store.addDevice(name: device, tokenHash: Tokens.hash(TestServer.phoneToken), at: TestServer.start)
        return store
    }

    /// The timeline built in one pass over every stored sample in time order, each with the
    /// settings of its source (as the updater takes it).
    static func onePass(_ store: SQLiteTrackStore) async throws -> [TimelineEntry] {
        let settings = TimelineUpdater.Settings()
        var builder = TimelineBuilder(settings: settings.timeline)
        var entries: [TimelineEntry] = []
        for sample in try await store.samples(device: device, from: .epoch, to: far, limit: nil) {
            builder.settings = settings.builderSettings(for: sample.source)
            entries += builder.add(SampleValues(sample))
        }
        return entries + builder.finish()
    }

    // MARK: - The three bugs of the report

    /// Bug (a): a server that had not served the device yet answered its first read after an
    /// import with the entries the import's newest samples closed (2 stays of 135), since it read
    /// the stored entries before loading the device, which saved the rest.
    @Test func theFirstReadAfterAnImportShowsAllOfIt() async throws {
        let store = try await Self.makeStore()
        let clock = ManualTime(TestServer.start)
        let points = Self.points()
        try await Server(store: store, clock: clock).importFile(points)
        let expected = try await Self.onePass(store)
        #expect(expected.count > 5)
        let first = try await Server(store: store, clock: clock).read()
        #expect(first == expected, "the first read had \(first.count) entries of \(expected.count)")
    }

    /// Bug (b): points imported into a device the server had already served never reached its
    /// timeline until a restart: the import told no one, and the server's builder was in memory.
    @Test(arguments: [false, true])
    func anImportIntoADeviceAlreadyServedReachesTheNextRead(older: Bool) async throws {
        let store = try await Self.makeStore()
        let server = Server(store: store, clock: ManualTime(TestServer.start))
        let points = Self.points()
        let (live, imported) =
            older
            ? (Array(points[(points.count / 2)...]), Array(points[..<(points.count / 2)]))
            : (Array(points[..<(points.count / 2)]), Array(points[(points.count / 2)...]))
        try await server.native(live, batch: "live")
        _ = try await server.read()
        try await server.importFile(imported)
        #expect(try await server.read() == Self.onePass(store))
    }

    /// Bug (b) by `bgtrack import`, which writes the database itself, maybe while a server runs
    /// on it: the server was never told, and its next read still shows the points.
    @Test func theImportCommandWritingBesideARunningServerReachesItsNextRead() async throws {
        let store = try await Self.makeStore()
        let server = Server(store: store, clock: ManualTime(TestServer.start))
        let points = Self.points()
        try await server.native(Array(points[(points.count / 2)...]), batch: "live")
        _ = try await server.read()
        try await ImportHarness.importInto(
            store, device: Self.device, bytes: Array(Self.geoJSON(Array(points[..<(points.count / 2)])).utf8))
        #expect(try await server.read() == Self.onePass(store))
    }

    /// Bug (c): history imported after live uploads never appeared, even after a restart: loading
    /// caught up only with samples newer than the checkpoint.
    @Test func historyImportedAfterLiveUploadsAppearsAfterARestart() async throws {
        let store = try await Self.makeStore()
        let clock = ManualTime(TestServer.start)
        let points = Self.points()
        let live = Server(store: store, clock: clock)
        try await live.native(Array(points[(points.count / 2)...]), batch: "live")
        _ = try await live.read()
        // The server stops; the history is imported; a new server starts.
        try await ImportHarness.importInto(
            store, device: Self.device, bytes: Array(Self.geoJSON(Array(points[..<(points.count / 2)])).utf8))
        let restarted = Server(store: store, clock: clock)
        #expect(try await restarted.read() == Self.onePass(store))
    }

    // MARK: - The property

    /// What a delivery did, for the message of a failing seed.
    enum Step: CustomStringConvertible {
        case native(ClosedRange<Int>, shuffled: Bool)
        case ownTracks(ClosedRange<Int>)
        case importFile(ClosedRange<Int>)
        case resend(Int)
        case restart
        case read

        var description: String {
            switch self {
            case .native(let range, let shuffled): "native \(range)\(shuffled ? " shuffled" : "")"
            case .ownTracks(let range): "owntracks \(range)"
            case .importFile(let range): "import \(range)"
            case .resend(let step): "resend step \(step)"
            case .restart: "restart"
            case .read: "read"
            }
        }
    }

    static let seeds: [UInt64] = Array(0..<100)

    /// Random interleavings of one set of points through the real server paths: native batches
    /// (in order or not), OwnTracks single points, imports over HTTP, duplicates (a delivery sent
    /// again), restarts (a new server over the same store) and reads in between. Each point goes
    /// by one path; the runs of points arrive in a random order, so older history comes after
    /// newer live data. The timeline read at the end (and at every read in between) equals the one
    /// built in one pass over the stored samples in time order.
    @Test(arguments: seeds)
    func theTimelineIsTheSameWhateverOrderThePointsArrivedIn(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed &* 0x9E37_79B9 &+ 1)
        let points = Self.points(seed: seed % 5)
        // Runs of 1-40 points, in a random order, each by one path.
        var runs: [ClosedRange<Int>] = []
        var start = 0
        while start < points.count {
            let length = 1 + Int(random.uniform(0...39.999))
            runs.append(start...min(points.count - 1, start + length - 1))
            start += length
        }
        runs.shuffle(using: &random)
        var steps: [Step] = []
        for run in runs {
            let path = random.unit()
            steps.append(
                path < 0.5
                    ? .native(run, shuffled: random.unit() < 0.3)
                    : path < 0.65
                        ? .ownTracks(run.lowerBound...min(run.upperBound, run.lowerBound + 4)) : .importFile(run))
            if case .ownTracks(let sent) = steps.last, sent != run {
                // OwnTracks sends one point a request: the rest of a long run goes natively.
                steps.append(.native(sent.upperBound + 1...run.upperBound, shuffled: false))
            }
            let extra = random.unit()
            if extra < 0.1 {
                steps.append(.resend(Int(random.uniform(0...Double(steps.count - 1)))))
            } else if extra < 0.2 {
                steps.append(.restart)
            } else if extra < 0.3 {
                steps.append(.read)
            }
        }
        let store = try await Self.makeStore()
        let clock = ManualTime(TestServer.start)
        var server = Server(store: store, clock: clock)
        func deliver(_ step: Step, number: Int) async throws {
            switch step {
            case .native(let range, let shuffled):
                var batch = Array(points[range])
                if shuffled { batch.shuffle(using: &random) }
                try await server.native(batch, batch: "b\(range.lowerBound)")
            case .ownTracks(let range):
                for point in points[range] { try await server.ownTracks(point) }
            case .importFile(let range):
                try await server.importFile(Array(points[range]))
            case .resend(let earlier):
                if case .resend = steps[earlier] { return }
                try await deliver(steps[earlier], number: earlier)
            case .restart:
                server = Server(store: store, clock: clock)
            case .read:
                let read = try await server.read()
                let expected = try await Self.onePass(store)
                #expect(read == expected, "seed \(seed), at step \(number) of \(steps.map(\.description))")
            }
        }
        for (number, step) in steps.enumerated() { try await deliver(step, number: number) }
        #expect(try await server.sampleCount(store) == points.count, "nothing lost, nothing doubled")
        let read = try await server.read()
        let expected = try await Self.onePass(store)
        #expect(read == expected, "seed \(seed): \(steps.map(\.description))")
        // A new server over the same store reads the same.
        #expect(try await Server(store: store, clock: clock).read() == expected, "seed \(seed) after a restart")
    }

    // MARK: - Backfill

    /// `count` days of points from `day`, a day's pattern per seed, indices running on.
    static func days(_ count: Int) -> [Point] {
        var all: [Point] = []
        for day in 0..<count {
            let start = Self.day + .seconds(Int64(day) * 86_400)
            all += Self.points(hours: 24, start: start, seed: UInt64(day)).map { point in
                var point = point
                point.index += all.count
                return point
            }
        }
        return all
    }

    /// A late hour of history in the last of ten days recomputes from the last entry closed
    /// before it (a resume point) on, not the device's whole history: the rebuild reads less than
    /// the last day's samples, of ten days'.
    @Test func aBackfillRecomputesOnlyTheAffectedStretch() async throws {
        let store = try await Self.makeStore()
        let server = Server(store: store, clock: ManualTime(Self.day + .seconds(10 * 86_400)))
        let all = Self.days(10)
        // Hour 7 of the last day is held back and imported after everything else.
        let lastDay = Self.day + .seconds(9 * 86_400)
        let lateStart = lastDay + .seconds(7 * 3600)
        let late = all.filter { $0.time >= lateStart && $0.time < lateStart + .seconds(3600) }
        let live = all.filter { $0.time < lateStart || $0.time >= lateStart + .seconds(3600) }
        for first in stride(from: 0, to: live.count, by: 500) {
            try await server.native(Array(live[first..<min(first + 500, live.count)]), batch: "b\(first)")
        }
        let timeline = try server.timeline
        _ = try await server.read()
        let (readBefore, rebuildsBefore) = (await timeline.samplesRead, await timeline.rebuilds)
        #expect(late.count > 10)
        try await server.importFile(late)
        #expect(try await server.sampleCount(store) == all.count)
        #expect(try await server.read() == Self.onePass(store))
        let read = await timeline.samplesRead - readBefore
        #expect(await timeline.rebuilds == rebuildsBefore + 1)
        let lastDaySamples = all.filter { $0.time >= lastDay }.count
        #expect(read > late.count && read < lastDaySamples, "the backfill read \(read) of \(all.count) samples")
    }

    /// Ten days of history imported before ten live days (must-show 4's year, scaled down): the
    /// rebuild starts at the first imported sample and stops where it meets the saved timeline
    /// again, a little after the last one, instead of re-reading the live days too.
    @Test func aBackfillBeforeTheLiveHistoryStopsWhereItMeetsTheSavedTimeline() async throws {
        let store = try await Self.makeStore()
        let server = Server(store: store, clock: ManualTime(Self.day + .seconds(20 * 86_400)))
        let all = Self.days(20)
        let liveFrom = Self.day + .seconds(10 * 86_400)
        let history = all.filter { $0.time < liveFrom }
        let live = all.filter { $0.time >= liveFrom }
        for first in stride(from: 0, to: live.count, by: 500) {
            try await server.native(Array(live[first..<min(first + 500, live.count)]), batch: "b\(first)")
        }
        let timeline = try server.timeline
        _ = try await server.read()
        let readBefore = await timeline.samplesRead
        try await server.importFile(history)
        #expect(try await server.read() == Self.onePass(store))
        let read = await timeline.samplesRead - readBefore
        // The imported days, and at most a page or two of the live ones (pages of 2,000 while
        // the rebuild may meet the saved timeline), not all ten live days again.
        #expect(
            read >= history.count && read < history.count + live.count / 2, "the backfill read \(read) of \(all.count)")
        // Restarted, the server gives the same timeline from what was saved.
        #expect(
            try await Server(store: store, clock: ManualTime(Self.day + .seconds(20 * 86_400))).read()
                == Self.onePass(store))
    }
}

extension TimelineArrivalOrderTests.Server {
    func sampleCount(_ store: SQLiteTrackStore) async throws -> Int {
        try await store.device(named: TimelineArrivalOrderTests.device)?.sampleCount ?? 0
    }
}
