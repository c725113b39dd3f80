import BackgroundCore
import HTTPTypes
import Hummingbird
import LocationLog
import Logging
import TrackGeometry

/// The stored track (`GET /v1/devices/{id}/track`, every export format) and the quarantine
/// (`GET /v1/devices/{id}/rejected`); the map pages read their segments through it too
/// (``sampleSegments(device:from:to:)``).
struct TrackController: Sendable {
    let samples: any SampleStore
    let ingestLog: any IngestLogStore
    let auth: Authenticator
    let clock: ServerClock
    let readLimiter: ReadLimiter
    /// The exports carry the timeline; `nil` with `serve --no-timeline`.
    let timeline: TimelineUpdater?
    let localTime: LocalTimes
    let gapThreshold: Duration
    let maxTrackPoints: Int

    init(_ environment: TrackServerEnvironment) {
        samples = environment.store
        ingestLog = environment.store
        auth = environment.auth
        clock = environment.clock
        readLimiter = environment.readLimiter
        timeline = environment.timeline
        localTime = environment.localTimes
        gapThreshold = environment.configuration.gapThreshold
        maxTrackPoints = environment.configuration.maxTrackPoints
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/v1/devices/{id}/track", use: track)
        router.get("/v1/devices/{id}/rejected", use: rejected)
    }

    /// `GET /v1/devices/{id}/track`: the track between `from` and `to` in the asked format.
    /// `GET /v1/devices/{id}/rejected`: the device's quarantined points (at most 1,000, newest first).
    func rejected(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try await auth.readableDevice(request, context: context).name
        return try Response.json(
            RejectedBody(device: device, rejected: try await ingestLog.rejectedPoints(device: device, limit: 1000)))
    }

    func track(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try await auth.readableDevice(request, context: context).name
        let query = try TrackQuery({ request.uri.queryParameters.get($0) }, now: clock.now)
        // Held until the body is written (or dropped): the read's memory is one page, one
        // simplification window and one written piece, and at most `maxConcurrentReads` run.
        let permit = try readLimiter.acquire()
        try await checkRangeSize(device: device, from: query.from, to: query.to)
        let segmentCount =
            query.format == .geojson
            ? try await samples.segmentCount(device: device, from: query.from, to: query.to, maximumGap: gapThreshold)
            : 0
        let body = TrackBody(
            reader: TrackReader(
                store: samples, device: device, from: query.from, to: query.to, maximumGap: gapThreshold,
                simplify: query.simplify, content: query.format == .polyline ? .positions : .record),
            format: query.format, name: device, segmentCount: segmentCount,
            timeline: try await exportedTimeline(device: device, from: query.from, to: query.to, format: query.format),
            localTime: try await localTime(device: device).exportLocalTime(from: query.from, to: query.to))
        return Response(
            status: .ok, headers: [.contentType: query.format.contentType],
            body: ResponseBody { writer in
                defer { permit.release() }
                try await body.write(to: &writer)
            })
    }

    /// The stored samples split where the gap threshold breaks the line, as the map page draws them.
    /// - Throws: a 400 ``APIError`` when the range holds more than `maxTrackPoints` samples (counted
    ///   before any row is read); a 503 when `maxConcurrentReads` reads are running.
    func sampleSegments(device: String, from: Instant, to: Instant) async throws -> [[TrackSample]] {
        let permit = try readLimiter.acquire()
        defer { permit.release() }
        try await checkRangeSize(device: device, from: from, to: to)
        let stored = try await samples.samples(device: device, from: from, to: to, limit: maxTrackPoints)
        return Gaps.segments(of: stored, time: \.time, maximumGap: gapThreshold)
    }

    /// Refuses a range of more than `maxTrackPoints` samples with a 400, from a bounded count of
    /// the index (no row is read, and no more than the limit is counted).
    private func checkRangeSize(device: String, from: Instant, to: Instant) async throws {
        let limit = maxTrackPoints
        let counted = try await samples.sampleCount(
            device: device, from: from, to: to, atMost: limit < Int.max ? limit + 1 : limit)
        guard counted <= limit else {
            throw APIError(
                .badRequest,
                "the range \(from.iso8601) … \(to.iso8601) holds more than \(limit) samples; "
                    + "ask for a shorter from…to and fetch the track in parts")
        }
    }
}

/// `GET /v1/devices/{id}/rejected`'s answer.
struct RejectedBody: Encodable {
    var device: String
    var rejected: [RejectedPoint]
}

extension TrackController {
    /// The timeline a GeoJSON or GPX export carries (none for CSV and polyline, or without a timeline).
    func exportedTimeline(device: String, from: Instant, to: Instant, format: TrackQuery.Format) async throws
        -> [TimelineEntry]
    {
        guard let timeline, format == .geojson || format == .gpx else { return [] }
        let found = try await timeline.timeline(device: device, from: from, to: to)
        return found.closed + found.provisional
    }
}
