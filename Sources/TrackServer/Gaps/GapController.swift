import BackgroundCore
import HTTPTypes
import Hummingbird
import LocationLog

/// `GET /v1/devices/{id}/gaps`'s answer.
struct GapsBody: Encodable {
    var device: String
    var from: Int64
    var to: Int64
    /// Sampling gaps: why the phone took no samples.
    var gaps: [GapBody]
    /// Upload delays: why the points arrived late (issue 37 item 3).
    var delays: [GapBody]
}

/// The gap intervals the phones reported (`GET /v1/devices/{id}/gaps`), in words; the day's map
/// page shows them too (``gapBodies(device:from:to:localTime:)``).
struct GapController: Sendable {
    let intervals: any GapStore
    let auth: Authenticator
    let clock: ServerClock
    let localTime: LocalTimes

    init(_ environment: TrackServerEnvironment) {
        intervals = environment.store
        auth = environment.auth
        clock = environment.clock
        localTime = environment.localTimes
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/v1/devices/{id}/gaps", use: gaps)
    }

    /// The most gap intervals one answer or one map page holds (a phone sends a handful a day).
    static let maximumGapsPerRead = 10_000

    /// `GET /v1/devices/{id}/gaps?from=&to=`: why the phone took no samples (`gaps`) and why its
    /// uploads waited (`delays`), as it reported, the intervals that overlap the range (default
    /// the last 24 hours), each with its words.
    func gaps(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try await auth.readableDevice(request, context: context).name
        let query = try TrackQuery({ request.uri.queryParameters.get($0) }, now: clock.now)
        let bodies = try await gapBodies(device: device, from: query.from, to: query.to)
        return try Response.json(
            GapsBody(
                device: device, from: query.from.milliseconds, to: query.to.milliseconds, gaps: bodies.gaps,
                delays: bodies.delays))
    }

    /// The sampling gaps and upload delays of a range in words, for the JSON and the map page.
    func gapBodies(device: String, from: Instant, to: Instant, localTime: LocalTime? = nil) async throws
        -> (gaps: [GapBody], delays: [GapBody])
    {
        let intervals = try await self.intervals.reportedIntervals(device: device, from: from, to: to)
        guard !intervals.isEmpty else { return ([], []) }
        let local: LocalTime
        if let localTime { local = localTime } else { local = try await self.localTime(device: device) }
        return (
            intervals.compactMap(\.gap).prefix(Self.maximumGapsPerRead).map { GapBody($0, localTime: local) },
            intervals.compactMap(\.delay).prefix(Self.maximumGapsPerRead).map { GapBody($0, localTime: local) }
        )
    }
}
