public import BackgroundCore
import Foundation
import LocationLog
public import Logging
public import TrackGeometry

/// Keeps every device's timeline up to date as samples are stored: right after each ingest
/// commit, the new samples go through the device's ``TimelineBuilder``, and the entries they
/// close are saved with the builder's state (``TimelineStore``).
///
/// Incremental: the builder lives in memory and is saved only when an entry closes; after a
/// restart it resumes from its checkpoint and reads just the samples stored after it. A late
/// sample (older than the newest one the builder took) rebuilds from the builder as it was saved
/// after the last entry that closed before it (a resume point), not from the first sample.
/// One device is updated by one task at a time; samples arriving meanwhile join its queue.
///
/// Rows it was not handed (an import, over HTTP or by `bgtrack import` in another process) and
/// rows older than its saved checkpoint mark their stretch in the store, in their insert's
/// transaction (``TimelineStore/timelinePending(device:)``); every read, and every rebuild, redoes
/// it first. So a device's timeline is a function of its stored samples, whatever order and path
/// they came by (`theTimelineIsTheSameWhateverOrderThePointsArrivedIn`).
///
/// Ingest routes hand samples over with ``submit(_:device:)``, which neither waits nor hops: the
/// request is answered after its commit, not after the timeline, and one background task drains
/// what every request submitted, so a burst of requests costs one update per device per round,
/// not one each. Reads take what is still waiting first, so a read after an acknowledged upload
/// sees it.
public actor TimelineUpdater {
    /// The settings, and whether stays are inferred across gaps for clients that cannot say why
    /// they were silent (Overland, OwnTracks, OsmAnd, imports): on by default, so every path
    /// gives the same timeline for the same points (issue 38 item 2; issue 24 item 4 had it off).
    public struct Settings: Sendable {
        public var timeline: TimelineSettings
        public var infersStaysForOtherClients: Bool
        /// A device is rebuilt from the store at most once per this interval (on the server's
        /// clock); stragglers within it are owed one rebuild, from the earliest of them, run by the
        /// device's first update after it or by a read, whichever comes first.
        public var rebuildInterval: Duration
        /// Past this many samples handed over and not yet taken, ingest waits for the timeline
        /// (``waitForRoom()``) instead of handing over more: memory stays bounded when uploads
        /// outpace it.
        public var backlogLimit: Int
        /// A drain of the samples handed over that would start within this long of the previous
        /// one's end waits for the rest of it, on the server's clock (``TimelineInbox``,
        /// ``ServerClock/pause(for:)``; a driven clock does not wait): under load the timeline trails
        /// ingest by up to this long, and reads catch up first, so they never see it.
        public var coalescingWindow: Duration

        public init(
            timeline: TimelineSettings = TimelineSettings(), infersStaysForOtherClients: Bool = true,
            rebuildInterval: Duration = .seconds(1), backlogLimit: Int = 100_000,
            coalescingWindow: Duration = .milliseconds(10)
        ) {
            self.timeline = timeline
            self.infersStaysForOtherClients = infersStaysForOtherClients
            self.rebuildInterval = rebuildInterval
            self.backlogLimit = backlogLimit
            self.coalescingWindow = coalescingWindow
        }

        func builderSettings(for source: IngestSource) -> TimelineSettings {
            var settings = timeline
            if source != .native { settings.infersStaysAcrossGaps = infersStaysForOtherClients }
            return settings
        }
    }

    private let store: any TimelineStore & SampleStore & GapStore
    public let settings: Settings
    private let logger: Logger
    private var builders: [String: TimelineBuilder] = [:]
    private var queued: [String: [TrackSample]] = [:]
    private var busy: Set<String> = []
    /// The newest samples of each device, not yet given to its builder: those within
    /// ``reorderWindow`` of the newest (at most ``heldLimit``), so samples that arrive a little out
    /// of order (concurrent requests, a resent batch) are put in order instead of each one forcing
    /// a rebuild from the store. Reads see them (``timeline(device:from:to:)``).
    private var held: [String: HeldSamples] = [:]
    /// Samples read per page when catching up or rebuilding.
    static let pageSize = 20_000
    static let reorderWindow = Duration.seconds(300)
    static let heldLimit = 4_096
    /// Rebuilds from the store so far (a sample older than what the builder already took).
    package private(set) var rebuilds = 0
    /// Samples read from the store so far, catching up or rebuilding: what a backfill cost.
    package private(set) var samplesRead = 0
    /// Samples submitted by ingest routes and not yet taken (``submit(_:device:)``).
    private nonisolated let inbox: TimelineInbox
    /// Reads waiting for a device's update under way to finish.
    private var idleWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// Ingest requests waiting for the backlog to shrink (``waitForRoom()``).
    private var roomWaiters: [CheckedContinuation<Void, Never>] = []
    /// The rebuild each device owes: the earliest time its stragglers reach back to. A rebuild
    /// re-reads every stored sample from there on, so a client sending points days apart in turn
    /// would make each request cost the days between them; a device is rebuilt at most once per
    /// ``Settings/rebuildInterval``, from the earliest straggler of the interval.
    private var owedRebuild: [String: Instant] = [:]
    /// When each device was last rebuilt, on ``clock``.
    private var lastRebuild: [String: Instant] = [:]
    /// The server's clock (injected: tests and the simulator drive it).
    private let clock: ServerClock

    public init(
        store: any TimelineStore & SampleStore & GapStore, settings: Settings, clock: ServerClock = .system,
        logger: Logger
    ) {
        self.store = store
        self.settings = settings
        inbox = TimelineInbox(window: settings.coalescingWindow)
        self.clock = clock
        self.logger = logger
    }

    /// Takes samples the store has just committed. Returns when they (and any queued behind
    /// them) are in the timeline, or at once if another task is updating this device (it takes
    /// them too). Never throws: the timeline is derived data, and a failed update is logged and
    /// redone from the stored samples on the next one.
    public func ingest(_ samples: [TrackSample], device: String) async {
        guard !samples.isEmpty else { return }
        await work(device: device, adding: samples, payingOwed: false)
    }

    /// The device's one worker: takes its queued samples, and runs the rebuild it owes once the
    /// interval is over, or at once when `payingOwed` (a read). No timer: until then the stored
    /// entries lag, and every read pays first. A call while the device is busy only queues.
    private func work(device: String, adding samples: [TrackSample], payingOwed force: Bool) async {
        if !samples.isEmpty { queued[device, default: []] += samples }
        guard !busy.contains(device) else { return }
        busy.insert(device)
        defer {
            busy.remove(device)
            for waiter in idleWaiters.removeValue(forKey: device) ?? [] { waiter.resume() }
        }
        while true {
            if let next = queued.removeValue(forKey: device) {
                do {
                    try await update(device: device, with: next)
                } catch {
                    forget(device, error)
                }
            } else if let from = owedRebuild[device], force || rebuildDue(device: device) {
                owedRebuild[device] = nil
                lastRebuild[device] = clock.now
                do {
                    try await rebuild(device: device, from: from)
                } catch {
                    forget(device, error)
                }
            } else {
                return
            }
        }
    }

    /// A failed update: the device's state is dropped and redone from the stored samples next time.
    private func forget(_ device: String, _ error: any Error) {
        builders[device] = nil
        held[device] = nil
        owedRebuild[device] = nil
        logger.error(
            "timeline update failed; it is redone from the stored samples on the next batch",
            metadata: ["device": "\(device)", "error": "\(error)"])
    }

    private func rebuildDue(device: String) -> Bool {
        guard let last = lastRebuild[device] else { return true }
        return clock.now - last >= settings.rebuildInterval
    }

    /// The device's timeline overlapping `from..<to`: the closed entries, then the open stay or
    /// trip (`provisional`), which may still grow.
    public func timeline(device: String, from: Instant, to: Instant) async throws
        -> (closed: [TimelineEntry], provisional: [TimelineEntry])
    {
        try await catchUp(device: device)
        // Loading may save the entries the samples stored after the checkpoint close: first, so
        // the entries read next include them (the first read after an import showed 2 stays of 135).
        var builder = try await builder(for: device)
        let stored = try await store.timelineEntries(device: device, from: from, to: to)
        let fresh = take(held[device]?.held ?? [], into: &builder)
        let closed = stored + fresh.filter { $0.end >= from && $0.start < to }
        let open = builder.provisional.filter { $0.end >= from && $0.start < to }
        guard closed.contains(where: \.isGap) || open.contains(where: \.isGap) else { return (closed, open) }
        // The phone's own reasons (issue 24 item 3), stored apart as it sent them, go to the gaps
        // they overlap; a gap none overlaps stays unexplained.
        let reasons = try await store.gapIntervals(device: device, from: from, to: to)
        return (closed.map { $0.explained(by: reasons) }, open.map { $0.explained(by: reasons) })
    }

    /// Hands over samples a request has just committed, without waiting for the timeline: they are
    /// taken by a background task (started here when none runs), or by the next read.
    public nonisolated func submit(_ samples: [TrackSample], device: String) {
        guard !samples.isEmpty else { return }
        switch inbox.add(samples, device: device, at: clock.now) {
        case .running: return
        case .now: Task { await drainInbox() }
        case .after(let delay):
            Task {
                await clock.pause(for: delay)
                await drainInbox()
            }
        }
    }

    /// Takes everything submitted, device by device, until nothing waits.
    private func drainInbox() async {
        while let (device, samples) = inbox.next(at: clock.now) {
            await ingest(samples, device: device)
            if !isBacklogged {
                for waiter in roomWaiters { waiter.resume() }
                roomWaiters = []
            }
        }
        for waiter in roomWaiters { waiter.resume() }
        roomWaiters = []
    }

    /// Samples handed over and not yet taken, all devices together.
    public nonisolated var backlog: Int { inbox.count }

    /// Whether ingest should wait for the timeline before handing over more.
    public nonisolated var isBacklogged: Bool { inbox.count > settings.backlogLimit }

    /// Returns once the backlog is at most ``Settings/backlogLimit``.
    public func waitForRoom() async {
        guard isBacklogged else { return }
        await withCheckedContinuation { roomWaiters.append($0) }
    }

    /// Takes what was submitted for `device` and waits for its update under way, then redoes the
    /// stretch inserts marked in the store (rows it was not handed), so a read sees every sample
    /// stored before it.
    func catchUp(device: String) async throws {
        await work(device: device, adding: inbox.take(device: device) ?? [], payingOwed: true)
        await idle(device)
        if let pending = try await store.timelinePending(device: device) {
            owedRebuild[device] = min(pending.from, owedRebuild[device] ?? pending.from)
        }
        // Another worker may run meanwhile and leave a rebuild owed: a read runs it.
        while owedRebuild[device] != nil {
            await work(device: device, adding: [], payingOwed: true)
            await idle(device)
        }
    }

    /// Returns once no task is updating `device`.
    private func idle(_ device: String) async {
        while busy.contains(device) {
            await withCheckedContinuation { idleWaiters[device, default: []].append($0) }
        }
    }

    private func update(device: String, with samples: [TrackSample]) async throws {
        let sorted = samples.sorted { $0.time < $1.time }
        let cached = builders[device]
        // Loading catches up with every stored sample newer than the checkpoint, these included.
        let (loaded, checkpointNewest) = try await load(device: device)
        var builder = loaded
        let newest = cached == nil ? checkpointNewest : builder.newestTime
        if let newest, let earliest = sorted.first?.time, earliest <= newest {
            // Stored already: the rebuild owed (run by ``work``) reads them from the store. Marked
            // there too, so a restart before it still redoes them (the checkpoint may have taken
            // newer samples since their insert, which then marked nothing).
            owedRebuild[device] = min(earliest, owedRebuild[device] ?? earliest)
            try await store.markTimelinePending(device: device, from: earliest, until: sorted.last?.time ?? earliest)
            return
        }
        // A rebuild owed re-reads these from the store too.
        guard owedRebuild[device] == nil else { return }
        // Loading read every stored sample after the checkpoint, these among them.
        guard cached != nil else { return }
        // The builder takes what is old enough; the rest waits for stragglers.
        held[device, default: HeldSamples()].add(sorted)
        let ripe = held[device, default: HeldSamples()].takeRipe(window: Self.reorderWindow, limit: Self.heldLimit)
        let (closed, points, _) = try takeRecording(ripe[...], into: &builder)
        builders[device] = builder
        if !closed.isEmpty {
            try await save(device: device, closed: closed, builder: builder, replacingFrom: nil, resumePoints: points)
        }
    }

    private func builder(for device: String) async throws -> TimelineBuilder {
        try await load(device: device).builder
    }

    /// The device's builder: in memory, or its checkpoint caught up with the samples stored after
    /// it (and the newest sample the checkpoint had taken).
    private func load(device: String) async throws -> (builder: TimelineBuilder, checkpointNewest: Instant?) {
        if let builder = builders[device] { return (builder, builder.newestTime) }
        var builder = TimelineBuilder(settings: settings.timeline)
        if let saved = try await store.timelineCheckpoint(device: device) {
            do {
                builder = try JSONDecoder().decode(TimelineBuilder.self, from: Data(saved.utf8))
            } catch {
                logger.warning(
                    "unreadable timeline checkpoint; rebuilding the device's timeline from its samples",
                    metadata: ["device": "\(device)", "error": "\(error)"])
                builders[device] = TimelineBuilder(settings: settings.timeline)
                try await rebuild(device: device, from: .epoch)
                return (builders[device] ?? builder, nil)
            }
        }
        let checkpointNewest = builder.newestTime
        let after = checkpointNewest.map { $0 + .milliseconds(1) } ?? .epoch
        let (closed, newest, points, _) = try await feed(&builder, device: device, from: after)
        builders[device] = builder
        held[device] = newest
        if !closed.isEmpty {
            try await save(device: device, closed: closed, builder: builder, replacingFrom: nil, resumePoints: points)
        }
        return (builder, checkpointNewest)
    }

    /// Recomputes the timeline from a late sample at `time` (or the stretch inserts marked in the
    /// store, if earlier) onwards: from the latest resume point before it, a builder saved after
    /// taking exactly the samples up to its time, so the result is the one pass over every stored
    /// sample would give. Only the entries from its open one on are redone. Clears the mark it read
    /// with the entries it saves, unless an insert marked it again meanwhile.
    private func rebuild(device: String, from late: Instant) async throws {
        // Read before the samples: rows an insert marks after this are left marked for the next.
        let pending = try await store.timelinePending(device: device)
        let time = min(late, pending?.from ?? late)
        var builder = TimelineBuilder(settings: settings.timeline)
        var resumed: TimelineCheckpoint?
        if let point = try await store.timelineResumePoint(device: device, before: time) {
            do {
                builder = try JSONDecoder().decode(TimelineBuilder.self, from: Data(point.builder.utf8))
                resumed = point
            } catch {
                logger.warning(
                    "unreadable timeline resume point; rebuilding the device's timeline from its first sample",
                    metadata: ["device": "\(device)", "error": "\(error)"])
            }
        }
        let after = builder.newestTime.map { $0 + .milliseconds(1) } ?? .epoch
        // The entries the resumed builder had closed stand; its open one and the rest are redone.
        let start = resumed == nil ? .epoch : builder.openSince ?? after
        // Past the newest sample the marks cover, a builder equal to the one saved after the same
        // sample will close what was closed before: the rebuild stops there (a year of history
        // imported before a live year redoes the imported year, not both).
        var saved: [TimelineCheckpoint] = []
        if let until = pending?.until, until >= time {
            saved = try await store.timelineResumePoints(device: device, after: until, limit: Self.convergenceLookahead)
        }
        let (closed, newest, points, met) = try await feed(&builder, device: device, from: after, meeting: saved)
        if let met {
            // The builder is the saved one here: what follows is stored already. Loaded again
            // from the checkpoint when next needed.
            builders[device] = nil
            held[device] = nil
            rebuilds += 1
            try await store.saveTimelineStretch(
                device: device, closed: closed, from: start,
                entriesBefore: builder.openSince ?? met.newest + .milliseconds(1), resumePointsBefore: met.newest,
                resumePoints: (resumed.map { [$0] } ?? []) + points, consuming: pending)
            return
        }
        builders[device] = builder
        held[device] = newest
        rebuilds += 1
        try await save(
            device: device, closed: closed, builder: builder, replacingFrom: start,
            resumePoints: (resumed.map { [$0] } ?? []) + points, consuming: pending)
    }

    /// Saved resume points a rebuild compares its own with (``rebuild(device:from:)``); past the
    /// last of them it reads to the end.
    static let convergenceLookahead = 64
    /// Samples read per page while a rebuild may meet a saved point.
    static let meetingPageSize = 2_000

    /// Feeds the device's stored samples from `from` on, page by page, except the newest, which
    /// it returns held (``HeldSamples``); returns the closed entries too, and the builder as each
    /// sample that closed some left it (resume points for a later rebuild).
    ///
    /// With `saved` resume points, it stops where the builder, after a sample that closed entries,
    /// is the one saved after that sample (by its newest time): from there on it would close what
    /// is stored already. It returns that point as `met` (not among the resume points).
    private func feed(
        _ builder: inout TimelineBuilder, device: String, from: Instant, meeting saved: [TimelineCheckpoint] = []
    ) async throws
        -> (closed: [TimelineEntry], held: HeldSamples, resumePoints: [TimelineCheckpoint], met: TimelineCheckpoint?)
    {
        var closed: [TimelineEntry] = []
        var points: [TimelineCheckpoint] = []
        var pending = HeldSamples()
        var lower = from
        var savedBuilders = Dictionary(saved.map { ($0.newest, $0.builder) }, uniquingKeysWith: { first, _ in first })
        while true {
            // While a saved point may be met, smaller pages: the rebuild may stop soon.
            let limit = savedBuilders.isEmpty ? Self.pageSize : Self.meetingPageSize
            let page = try await store.samples(
                device: device, from: lower, to: Instant(milliseconds: .max), limit: limit)
            samplesRead += page.count
            pending.add(page)
            let (newly, resumePoints, met) = try takeRecording(
                pending.takeRipe(window: Self.reorderWindow, limit: Self.heldLimit)[...], into: &builder,
                meeting: savedBuilders)
            closed += newly
            points += resumePoints
            if let met { return (closed, pending, points, met) }
            // Past the last saved point: nothing left to meet.
            if let last = saved.last, let newest = builder.newestTime, newest > last.newest { savedBuilders = [:] }
            guard page.count == limit, let last = page.last else { return (closed, pending, points, nil) }
            // Past the page's last time: other samples at that time are left out, as the builder
            // ignores them (it takes the first sample of a time, and the page holds it).
            lower = last.time + .milliseconds(1)
        }
    }

    /// ``take(_:into:)`` that also returns the builder as each sample that closed some left it: a
    /// resume point for a rebuild, which then re-reads only from the last entry closed before the
    /// late sample, however many samples one update took. It stops at the first of them equal to
    /// the one `saved` holds for the same newest time, and returns it as `met`.
    private func takeRecording(
        _ samples: ArraySlice<HeldSamples.Entry>, into builder: inout TimelineBuilder,
        meeting saved: [Instant: String] = [:]
    ) throws -> (closed: [TimelineEntry], resumePoints: [TimelineCheckpoint], met: TimelineCheckpoint?) {
        var closed: [TimelineEntry] = []
        var points: [TimelineCheckpoint] = []
        for sample in samples {
            builder.settings = settings.builderSettings(for: sample.source)
            let newly = builder.add(sample.point)
            guard !newly.isEmpty, let newest = builder.newestTime else { continue }
            closed += newly
            let point = TimelineCheckpoint(newest: newest, builder: try Self.encode(builder))
            if saved[newest] == point.builder { return (closed, points, point) }
            points.append(point)
        }
        return (closed, points, nil)
    }

    /// Gives `samples` (in time order) to the builder; returns the entries they closed.
    private func take(_ samples: ArraySlice<HeldSamples.Entry>, into builder: inout TimelineBuilder)
        -> [TimelineEntry]
    {
        var closed: [TimelineEntry] = []
        for sample in samples {
            builder.settings = settings.builderSettings(for: sample.source)
            closed += builder.add(sample.point)
        }
        return closed
    }

    /// Saves the entries and the builder, which is a resume point too, as are `resumePoints`.
    private func save(
        device: String, closed: [TimelineEntry], builder: TimelineBuilder, replacingFrom: Instant?,
        resumePoints: [TimelineCheckpoint] = [], consuming: TimelinePending? = nil
    ) async throws {
        try await store.saveTimeline(
            device: device, closed: closed, checkpoint: try Self.encode(builder), newest: builder.newestTime,
            replacingFrom: replacingFrom, resumePoints: resumePoints, consuming: consuming)
    }

    /// The builder's JSON, its keys sorted: equal states encode alike, which is how a rebuild
    /// knows it met a saved one (``feed(_:device:from:meeting:)``).
    private static func encode(_ builder: TimelineBuilder) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(builder), as: UTF8.self)
    }
}

extension SampleValues {
    init(_ sample: TrackSample) {
        self.init(
            time: sample.time, latitude: sample.latitude, longitude: sample.longitude, accuracy: sample.accuracy,
            speed: sample.speed)
    }
}
