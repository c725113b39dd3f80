import BackgroundCore
import HTTPTypes
import Hummingbird
import LocationLog

/// `GET /v1/devices/{id}/gaps`'s answer.
struct GapsBody: Encodable {
    var device: String
    var from: Int64
    var to: Int64
    var gaps: [GapBody]
}

extension TrackServerEnvironment {
    /// The most gap intervals one answer or one map page holds (a phone sends a handful a day).
    static let maximumGapsPerRead = 10_000

    /// `GET /v1/devices/{id}/gaps?from=&to=`: why the phone took no samples, as it reported, the
    /// intervals that overlap the range (default the last 24 hours), each with its words.
    func gaps(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try context.parameters.require("id")
        _ = try await auth.requireRead(token: Authenticator.bearer(request, allowQuery: true), device: device)
        guard try await store.device(named: device) != nil else {
            throw APIError(.notFound, "no device is registered as \"\(device)\"")
        }
        let query = try TrackQuery({ request.uri.queryParameters.get($0) }, now: clock.now)
        return try Response.json(
            GapsBody(
                device: device, from: query.from.milliseconds, to: query.to.milliseconds,
                gaps: try await gapBodies(device: device, from: query.from, to: query.to)))
    }

    /// The gaps of a range in words, for the JSON and the map page.
    func gapBodies(device: String, from: Instant, to: Instant, localTime: LocalTime? = nil) async throws -> [GapBody] {
        let gaps = try await store.gapIntervals(device: device, from: from, to: to).prefix(Self.maximumGapsPerRead)
        guard !gaps.isEmpty else { return [] }
        let local: LocalTime
        if let localTime { local = localTime } else { local = try await self.localTime(device: device) }
        return gaps.map { GapBody($0, localTime: local) }
    }
}
