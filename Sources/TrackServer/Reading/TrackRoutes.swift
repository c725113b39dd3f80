import BackgroundCore
import HTTPTypes
import Hummingbird
import LocationLog
import Logging
import TrackGeometry

/// One line of `GET /v1/devices`.
struct DeviceSummary: Encodable {
    var name: String
    var samples: Int
    var last_seen: Int64?
    var offline: Bool
    var revoked: Bool
}

extension TrackServerEnvironment {
    /// `GET /v1/devices`: every device for an operator, only itself for a device token.
    func listDevices(_ request: Request, context: some RequestContext) async throws -> Response {
        let owner = try await auth.owner(token: Authenticator.bearer(request, allowQuery: true))
        let now = clock.now
        return try Response.json(
            try await visibleDevices(to: owner).map {
                DeviceSummary(
                    name: $0.name, samples: $0.sampleCount, last_seen: $0.lastSeenAt?.milliseconds,
                    offline: $0.isOffline(at: now, threshold: configuration.offlineThreshold),
                    revoked: $0.revokedAt != nil)
            })
    }

    /// The devices `owner` may read: all of them for an operator, only its own for a device.
    func visibleDevices(to owner: TokenOwner) async throws -> [DeviceRecord] {
        try await store.devices().filter { device in
            switch owner {
            case .operator: true
            case .device(let name), .session(let name, _): device.name == name
            }
        }
    }

    /// `GET /v1/devices/{id}/track`: the track between `from` and `to` in the asked format.
    /// `GET /v1/devices/{id}/rejected`: the device's quarantined points (at most 1,000, newest first).
    func rejected(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try context.parameters.require("id")
        _ = try await auth.requireRead(token: Authenticator.bearer(request, allowQuery: true), device: device)
        guard try await store.device(named: device) != nil else {
            throw APIError(.notFound, "no device is registered as \"\(device)\"")
        }
        return try Response.json(
            RejectedBody(device: device, rejected: try await store.rejectedPoints(device: device, limit: 1000)))
    }

    func track(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try context.parameters.require("id")
        _ = try await auth.requireRead(token: Authenticator.bearer(request, allowQuery: true), device: device)
        guard try await store.device(named: device) != nil else {
            throw APIError(.notFound, "no device is registered as \"\(device)\"")
        }
        let query = try TrackQuery({ request.uri.queryParameters.get($0) }, now: clock.now)
        // Held until the body is written (or dropped): the read's memory is one page, one
        // simplification window and one written piece, and at most `maxConcurrentReads` run.
        let permit = try readLimiter.acquire()
        try await checkRangeSize(device: device, from: query.from, to: query.to)
        let segmentCount =
            query.format == .geojson
            ? try await store.segmentCount(
                device: device, from: query.from, to: query.to, maximumGap: configuration.gapThreshold) : 0
        let body = TrackBody(
            reader: TrackReader(
                store: store, device: device, from: query.from, to: query.to,
                maximumGap: configuration.gapThreshold, simplify: query.simplify),
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
        let stored = try await store.samples(device: device, from: from, to: to, limit: configuration.maxTrackPoints)
        return Gaps.segments(of: stored, time: \.time, maximumGap: configuration.gapThreshold)
    }

    /// Refuses a range of more than `maxTrackPoints` samples with a 400, from a bounded count of
    /// the index (no row is read, and no more than the limit is counted).
    private func checkRangeSize(device: String, from: Instant, to: Instant) async throws {
        let limit = configuration.maxTrackPoints
        let counted = try await store.sampleCount(
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
