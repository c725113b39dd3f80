import BackgroundCore
import HTTPTypes
import Hummingbird
import LocationLog

/// The timeline (`GET /v1/devices/{id}/timeline`): the stays, trips and gaps the server's
/// ``TimelineUpdater`` keeps, with the upload delays the phone reported.
struct TimelineController: Sendable {
    /// `nil` when the server computes no timeline (`serve --no-timeline`).
    let timeline: TimelineUpdater?
    let intervals: any GapStore
    let auth: Authenticator
    let clock: ServerClock

    init(_ environment: TrackServerEnvironment) {
        timeline = environment.timeline
        intervals = environment.store
        auth = environment.auth
        clock = environment.clock
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/v1/devices/{id}/timeline", use: timelineRoute)
    }

    /// `GET /v1/devices/{id}/timeline?from&to`: the device's stays, trips and gaps overlapping the
    /// range (default: the last 24 hours), the open one last with `"open": true`.
    func timelineRoute(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try await auth.readableDevice(request, context: context).name
        let range = try TimelineQuery({ request.uri.queryParameters.get($0) }, now: clock.now)
        guard let timeline else {
            throw APIError(
                .notFound,
                "this server computes no timeline (started with --no-timeline, or its store keeps none); "
                    + "restart bgtrack serve without --no-timeline")
        }
        let found = try await timeline.timeline(device: device, from: range.from, to: range.to)
        return try Response.json(
            TimelineBody(
                device: device, from: range.from, to: range.to, closed: found.closed, open: found.provisional,
                delays: try await intervals.uploadDelays(device: device, from: range.from, to: range.to),
                settings: timeline.settings.timeline))
    }
}

/// The range of a timeline request, checked: epoch milliseconds or ISO-8601, at most 31 days.
struct TimelineQuery {
    var from: Instant
    var to: Instant

    static let longest = Duration.seconds(31 * 86_400)

    init(_ parameter: (String) -> String?, now: Instant) throws(APIError) {
        let range = try QueryRange(parameter, now: now)
        (from, to) = (range.from, range.to)
        guard to - from <= Self.longest else {
            throw APIError(.badRequest, "the range is longer than 31 days; ask for a shorter from…to")
        }
    }
}
