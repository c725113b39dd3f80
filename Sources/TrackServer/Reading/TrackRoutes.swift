import BackgroundCore
import HTTPTypes
import Hummingbird
import LocationLog
import Logging

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
        let segments = try await segments(device: device, from: query.from, to: query.to, simplify: query.simplify)
        switch query.format {
        case .geojson:
            return Response.text(TrackExport.geoJSON(segments), contentType: "application/geo+json")
        case .gpx:
            return Response.text(TrackExport.gpx(segments, name: device), contentType: "application/gpx+xml")
        case .csv:
            return Response.text(TrackExport.csv(segments), contentType: "text/csv; charset=utf-8")
        case .polyline:
            let lines = segments.map { EncodedPolyline.encode($0) }
            return try Response.json(["segments": lines])
        }
    }

    /// The stored points cut at gaps, each segment simplified when asked.
    /// - Throws: a 400 ``APIError`` when the range holds more than `maxTrackPoints` samples.
    func segments(device: String, from: Instant, to: Instant, simplify: Double?) async throws -> [[TrackPoint]] {
        let stored = try await boundedSamples(device: device, from: from, to: to)
        let points = stored.map {
            TrackPoint(
                time: $0.time, latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy,
                altitude: $0.altitude, speed: $0.speed, course: $0.course)
        }
        let segments = Gaps.segments(of: points, maximumGap: configuration.gapThreshold)
        guard let simplify, simplify > 0 else { return segments }
        return segments.map { Simplification.douglasPeucker($0, tolerance: simplify) }
    }

    /// The stored samples split where the gap threshold breaks the line, as the map page draws them.
    func sampleSegments(device: String, from: Instant, to: Instant) async throws -> [[IngestSample]] {
        let stored = try await boundedSamples(device: device, from: from, to: to)
        return Gaps.segments(of: stored, time: \.time, maximumGap: configuration.gapThreshold)
    }

    /// The samples of a range, refused with a 400 when there are more than `maxTrackPoints`.
    private func boundedSamples(device: String, from: Instant, to: Instant) async throws -> [IngestSample] {
        let limit = configuration.maxTrackPoints
        let stored = try await store.samples(
            device: device, from: from, to: to, limit: limit < Int.max ? limit + 1 : limit)
        guard stored.count <= limit else {
            throw APIError(
                .badRequest,
                "the range \(from.iso8601) … \(to.iso8601) holds more than \(limit) samples; "
                    + "ask for a shorter from…to and fetch the track in parts")
        }
        return stored
    }
}

/// `GET /v1/devices/{id}/rejected`'s answer.
struct RejectedBody: Encodable {
    var device: String
    var rejected: [RejectedPoint]
}
