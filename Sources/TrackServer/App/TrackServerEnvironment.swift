public import Logging

/// What the server is built from: the store, the clock, the limits and the counters. Each
/// resource's controller (``buildRouter(_:)``) takes from it only what its routes use.
public struct TrackServerEnvironment: Sendable {
    public var store: any TrackStore
    public var clock: ServerClock
    public var configuration: ServerConfiguration
    public var metrics: ServerMetrics
    /// Open, refused and timed-out connections, shared by the ``ConnectionGuard`` of every connection.
    public var connectionCounters: ConnectionCounters
    public var logger: Logger
    /// The ingest write pipeline every ingest route stores through, built on `store` at `init`
    /// (shared by every copy of the environment).
    public let committer: SampleCommitter
    /// The bound on concurrent track reads (``ServerConfiguration/maxConcurrentReads``), shared by
    /// every copy of the environment.
    public let readLimiter: ReadLimiter
    /// The share pages' per-link and per-address limits (``ServerConfiguration/shareLimits``),
    /// shared by every copy of the environment.
    public let shareLimiter: ShareRateLimiter
    /// Keeps each device's timeline up to date after every ingest commit; `nil` when the timeline
    /// is off.
    public let timeline: TimelineUpdater?
    /// The tokens ``Authenticator/writer(token:)`` accepted in the last second, for the
    /// single-point lane; shared by every copy of the environment.
    public let writerCache = WriterCache()
    /// The zone each device last reported (``ZoneCache``); shared by every copy of the environment.
    public let zoneCache = ZoneCache()
    /// Free space under the database and the last write refused for space (`/healthz`, `/metrics`).
    public let storage: StorageHealth

    public init(
        store: any TrackStore, clock: ServerClock = .system, configuration: ServerConfiguration = .init(),
        metrics: ServerMetrics = ServerMetrics(), connectionCounters: ConnectionCounters = ConnectionCounters(),
        logger: Logger
    ) {
        self.store = store
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.connectionCounters = connectionCounters
        self.logger = logger
        committer = SampleCommitter(store: store, limits: configuration.groupCommit)
        readLimiter = ReadLimiter(limit: configuration.maxConcurrentReads)
        storage = StorageHealth(
            directory: configuration.dataDirectory, minimumFreeBytes: configuration.minimumFreeBytes)
        shareLimiter = ShareRateLimiter(limits: configuration.shareLimits)
        timeline =
            configuration.timelineEnabled
            ? TimelineUpdater(store: store, settings: configuration.timeline, clock: clock, logger: logger) : nil
    }

    var auth: Authenticator { Authenticator(store: store, clock: clock, writers: writerCache) }
    var bodyReader: BodyReader {
        BodyReader(
            maxBodyBytes: configuration.maxBodyBytes, maxDecompressedBytes: configuration.maxDecompressedBytes)
    }
    var rules: SampleRules { SampleRules() }
    /// Each device's local time (``LocalTimes``), for the routes that show or write local times.
    var localTimes: LocalTimes { LocalTimes(store: store, serverDefault: configuration.timeZone) }

    /// At start: hands the store the clean-up rules and gap threshold in force; when they changed
    /// since the last run, every stored day is redone with them as it is next read (or by
    /// `bgtrack cleanup`).
    public func useDetailRules() async throws {
        _ = try await store.useDetailRules(
            configuration.cleanupRules.fingerprint(maximumGap: configuration.gapThreshold))
    }
}
