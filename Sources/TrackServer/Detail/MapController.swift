import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import LocationLog
import TrackGeometry

/// `GET /v1/devices/{id}/map`'s answer: the track at one detail level, one encoded polyline per
/// segment (a new one after each gap), and the flagged points as excluded markers.
struct MapBody: Encodable {
    struct Segment: Encodable {
        /// Epoch milliseconds of the segment's first and last point.
        var start: Int64
        var end: Int64
        /// Google's encoded polyline (precision 5) of the points drawn.
        var line: String
    }

    var device: String
    var from: Int64
    var to: Int64
    /// The zoom the points are for; ``DetailLevels/all`` (20) when every point is sent.
    var zoom: Int
    var requestedZoom: Int?
    /// True when every stored point of the range that is not flagged was sent.
    var exact: Bool
    var points: Int
    var segments: [Segment]
    var excluded: [FlaggedPoint]
    /// More flagged points than the ones sent (at most 1,000).
    var excludedTruncated: Bool
}

/// The track of any range at a bounded cost (`GET /v1/devices/{id}/map`, issue 25 items 1 and 5):
/// the detail level that fits, as encoded polylines, and the points the clean-up rules excluded.
/// The range map page embeds its first answer (``mapBody(device:query:)``).
struct MapController: Sendable {
    let detail: any TrackDetailStore
    let auth: Authenticator
    let clock: ServerClock
    let readLimiter: ReadLimiter

    init(_ environment: TrackServerEnvironment) {
        detail = environment.store
        auth = environment.auth
        clock = environment.clock
        readLimiter = environment.readLimiter
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/v1/devices/{id}/map", use: mapTrack)
    }

    /// `GET /v1/devices/{id}/map?from=&to=&zoom=&points=`: any range at a bounded cost. It reads
    /// the levels that exist and writes nothing (``DetailWorker`` works out pending days): the
    /// finest level not above `zoom` whose points fit in `points` is chosen by bounded counts of the
    /// level index, and only its points are read.
    func mapTrack(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try await auth.readableDevice(request, context: context).name
        let query = try MapQuery({ request.uri.queryParameters.get($0) }, now: clock.now)
        let permit = try readLimiter.acquire()
        defer { permit.release() }
        let body = try await mapBody(device: device, query: query)
        return try Response.json(body)
    }

    func mapBody(device: String, query: MapQuery) async throws -> MapBody {
        let wanted = query.zoom ?? DetailLevels.all
        guard let zoom = try await finestZoom(detail, device: device, query: query, upTo: wanted) else {
            throw APIError(
                .badRequest,
                "the range \(query.from.iso8601) … \(query.to.iso8601) needs more than \(query.points) points even "
                    + "at zoom 0; ask for a shorter from…to or more points (at most \(MapQuery.maximumPoints))")
        }
        var segments: [MapBody.Segment] = []
        var encoder = EncodedPolyline.Encoder()
        var line = ""
        var start: Int64 = 0
        var end: Int64 = 0
        var sent = 0
        var after: TrackPageKey?
        func close() {
            if !line.isEmpty { segments.append(MapBody.Segment(start: start, end: end, line: line)) }
            line = ""
            encoder = EncodedPolyline.Encoder()
        }
        repeat {
            try Task.checkCancellation()
            let page = try await detail.drawnPage(
                device: device, from: query.from, to: query.to, zoom: zoom, after: after, limit: 4096)
            for drawn in page.points {
                if drawn.startsSegment || line.isEmpty {
                    close()
                    start = drawn.point.time.milliseconds
                }
                end = drawn.point.time.milliseconds
                encoder.append(latitude: drawn.point.latitude, longitude: drawn.point.longitude, to: &line)
                sent += 1
            }
            after = page.next
        } while after != nil && sent <= query.points
        close()
        let flagged = try await detail.flaggedPoints(
            device: device, from: query.from, to: query.to, limit: MapQuery.maximumExcluded + 1)
        return MapBody(
            device: device, from: query.from.milliseconds, to: query.to.milliseconds, zoom: zoom,
            requestedZoom: query.zoom, exact: zoom == DetailLevels.all, points: sent, segments: segments,
            excluded: Array(flagged.prefix(MapQuery.maximumExcluded)),
            excludedTruncated: flagged.count > MapQuery.maximumExcluded)
    }

    /// The finest zoom `<= upTo` whose drawn points fit in the query's budget, `nil` if not even
    /// zoom 0 does: a binary search over the levels (the counts grow with the zoom), each count
    /// stopping at the budget, so it reads at most about five budgets of index entries.
    private func finestZoom(
        _ detail: any TrackDetailStore, device: String, query: MapQuery, upTo wanted: Int
    ) async throws -> Int? {
        func fits(_ zoom: Int) async throws -> Bool {
            try await detail.drawnCount(
                device: device, from: query.from, to: query.to, zoom: zoom, atMost: query.points + 1) <= query.points
        }
        if try await fits(wanted) { return wanted }
        guard try await fits(0) else { return nil }
        var low = 0  // fits
        var high = wanted  // does not fit
        while high - low > 1 {
            let middle = (low + high) / 2
            if try await fits(middle) { low = middle } else { high = middle }
        }
        return low
    }
}
