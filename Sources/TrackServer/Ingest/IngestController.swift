import BackgroundCore
import Hummingbird
import Logging

/// The uploads: the native batches (`POST /v1/batches`), Overland, OwnTracks and OsmAnd, and the
/// single-point lane (``laneIngest(_:head:body:security:eventLoop:tokenHashes:peer:answer:)``).
/// Every point goes through the write pipeline (``SampleCommitter``) and is answered only after
/// its commit; an unusable point of a single-point client is kept aside (``quarantine(device:source:reason:raw:logger:)``).
struct IngestController: Sendable {
    let committer: SampleCommitter
    let auth: Authenticator
    let bodyReader: BodyReader
    let rules: SampleRules
    let clock: ServerClock
    let metrics: ServerMetrics
    /// OsmAnd's device check and OwnTracks' encryption keys.
    let devices: any DeviceStore
    /// Quarantined points, and the events (Overland trips, OwnTracks messages) stored beside the samples.
    let ingestLog: any IngestLogStore
    /// The gaps and delays a native batch reports.
    let intervals: any GapStore
    /// The zone a native batch reports, written only when it changed (``zoneCache``).
    let timeZones: any TimeZoneStore
    let zoneCache: ZoneCache
    /// Fed after every commit; `nil` with `serve --no-timeline`.
    let timeline: TimelineUpdater?
    /// The single-point lane's tokens checked in the last second.
    let writerCache: WriterCache
    /// The lane's request log line (the router's requests have `RequestLogMiddleware`'s).
    let logger: Logger
    let maxSamplesPerBatch: Int
    /// `serve --allow-tokenless-osmand`.
    let allowTokenlessOsmAnd: Bool
    /// Opens encrypted OwnTracks messages.
    let secretBox: Result<SecretBox, SecretBoxUnavailable>
    /// Who sent a point the lane took, as `ClientAddressMiddleware` decides it for the router.
    let trustedProxies: TrustedProxies

    init(_ environment: TrackServerEnvironment) {
        committer = environment.committer
        auth = environment.auth
        bodyReader = environment.bodyReader
        rules = environment.rules
        clock = environment.clock
        metrics = environment.metrics
        devices = environment.store
        ingestLog = environment.store
        intervals = environment.store
        timeZones = environment.store
        zoneCache = environment.zoneCache
        timeline = environment.timeline
        writerCache = environment.writerCache
        logger = environment.logger
        maxSamplesPerBatch = environment.configuration.maxSamplesPerBatch
        allowTokenlessOsmAnd = environment.configuration.allowTokenlessOsmAnd
        secretBox = environment.configuration.secretBox
        trustedProxies = environment.configuration.trustedProxies
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.post("/v1/batches", use: ingestNative)
        router.post("/ingest/overland", use: ingestOverland)
        router.post("/ingest/owntracks", use: ingestOwnTracks)
        router.get("/ingest/osmand", use: ingestOsmAnd)
        router.post("/ingest/osmand", use: ingestOsmAnd)
    }

    /// Counts a request refused as a whole (nothing written) before rethrowing its error.
    func countingRefusals(_ source: IngestSource, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch {
            await metrics.add("bgtrack_batches_refused_total", ["protocol": source.rawValue])
            throw error
        }
    }

    func record(_ source: IngestSource, outcome: InsertOutcome, rejected: Int) {
        metrics.recordSamples(
            protocol: source.rawValue, accepted: outcome.accepted.count, duplicates: outcome.duplicates.count,
            rejected: rejected)
    }

    /// Hands the newly stored samples of an ingest to the timeline (duplicates are not new).
    func updateTimeline(_ samples: [TrackSample], outcome: InsertOutcome, device: String) {
        guard let timeline, !outcome.accepted.isEmpty else { return }
        // Every sample stored (a single point, most batches): no set to build. The lane calls
        // this on the store's writer queue, where each commit waits for it.
        guard outcome.accepted.count < samples.count else { return timeline.submit(samples, device: device) }
        let accepted = Set(outcome.accepted)
        timeline.submit(samples.filter { accepted.contains($0.key) }, device: device)
    }

    /// After handing samples over: waits while the timeline is more than its backlog limit
    /// behind, so uploads that outpace it slow to its pace instead of growing its queue.
    func waitForTimeline() async {
        guard let timeline, timeline.isBacklogged else { return }
        await timeline.waitForRoom()
    }

    /// After a batch's commit: the zone the device reported with it applies from its first sample
    /// on. A store write only when the zone changed since the last batch this server saw.
    func noteTimeZone(_ zone: String?, device: String, samples: [TrackSample]) async throws {
        guard let zone, let first = samples.lazy.map(\.time).min() else { return }
        guard zoneCache.changed(device: device, zone: zone) else { return }
        do {
            try await timeZones.noteTimeZone(device: device, zone: zone, since: first)
        } catch {
            zoneCache.forget(device: device)
            throw error
        }
    }
}
