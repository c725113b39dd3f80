import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import LocationLog
import Logging

/// The page a share link opens (`GET /s/{secret}`): no credentials, the secret is the URL. The
/// operator's `/v1/shares` are ``ShareController``'s.
struct SharePageController: Sendable {
    let shares: any ShareStore
    /// A link ends with its device's revocation.
    let devices: any DeviceStore
    /// A live link's position (``SampleStore/lastPosition(device:seen:)``).
    let samples: any SampleStore
    /// A range link's segments.
    let tracks: TrackController
    let clock: ServerClock
    let localTime: LocalTimes
    let shareLimiter: ShareRateLimiter
    let shareLimits: ShareRateLimiter.Limits
    /// A newer point than this is not stale (``ServerConfiguration/shareStaleAfter``).
    let shareStaleAfter: Duration
    let gapThreshold: Duration
    let tileURL: String?
    /// Where Leaflet is (``LeafletAssets``); `nil` draws the plain map.
    let leafletDirectory: String?

    init(_ environment: TrackServerEnvironment) {
        shares = environment.store
        devices = environment.store
        samples = environment.store
        tracks = TrackController(environment)
        clock = environment.clock
        localTime = environment.localTimes
        shareLimiter = environment.shareLimiter
        shareLimits = environment.configuration.shareLimits
        shareStaleAfter = environment.configuration.shareStaleAfter
        gapThreshold = environment.configuration.gapThreshold
        tileURL = environment.configuration.tileURL
        leafletDirectory = environment.configuration.leafletDirectory
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/s/{secret}", use: sharePage)
    }

    /// Whether the page uses Leaflet.
    var leafletAvailable: Bool { LeafletAssets.isAvailable(in: leafletDirectory) }

    /// `GET /s/{secret}`: the shared range or live position, read-only. The secret is checked
    /// by shape, then by its hash; nothing in the page, its links or its requests carries it, the
    /// request log shows `/s/…`, and the answer has `Referrer-Policy: no-referrer` and
    /// `Cache-Control: no-store` (``SecurityHeadersMiddleware``).
    func sharePage(_ request: Request, context: some RequestContext) async throws -> Response {
        let now = clock.now
        let limits = shareLimits
        // Behind a trusted proxy, the client it forwarded for (`serve --trusted-proxy`), not the proxy.
        let address = context.clientAddress
        if let wait = shareLimiter.take("addr:\(address)", limit: limits.perAddress, at: now) {
            return Self.tooManyShareRequests(wait)
        }
        let secret = context.parameters.get("secret") ?? ""
        guard ShareSecret.isWellFormed(secret), let link = try await shares.share(secretHash: Tokens.hash(secret))
        else {
            return SharePageHTML.notice(
                .notFound, "No such link",
                "This share link does not exist. Check that it was copied whole, or ask its owner for a new one.")
        }
        // A link made before revocations ended share links (issue 41) still ends with its device.
        let deviceRevoked = try await devices.device(named: link.device)?.revokedAt != nil
        switch deviceRevoked ? .revoked : link.state(at: now) {
        case .revoked:
            return SharePageHTML.notice(.gone, "Link revoked", "Its owner revoked this share link.")
        case .expired:
            let expired = try await localTime(device: link.device).named(link.expiresAt)
            return SharePageHTML.notice(
                .gone, "Link expired", "This share link expired on \(expired); ask its owner for a new one.")
        case .active: break
        }
        if let wait = shareLimiter.take("link:\(link.id)", limit: limits.perLink, at: now) {
            return Self.tooManyShareRequests(wait)
        }
        // The view count is the only write of a share page: on a full disk the page is still served.
        do {
            try await shares.countShareView(id: link.id, at: now)
        } catch {
            context.logger.warning(
                "share view not counted",
                metadata: ["share": "\(link.id)", "error": "\(LogText.bounded("\(error)", limit: 300))"])
        }
        context.logger.info("share viewed", metadata: ["share": "\(link.id)", "device": "\(link.device)"])
        let page = try await sharePageHTML(link, now: now)
        return Response.text(try page.render(), contentType: "text/html; charset=utf-8")
    }

    private static func tooManyShareRequests(_ wait: Duration) -> Response {
        let seconds = max(1, Int(wait.seconds.rounded(.up)))
        return SharePageHTML.notice(
            .tooManyRequests, "Too many requests",
            "This link was opened too often; try again in \(seconds) s.",
            headers: [.retryAfter: "\(seconds)"])
    }

    /// The page of an active link: its range, or the newest position for a live link.
    func sharePageHTML(_ link: ShareLink, now: Instant) async throws -> SharePageHTML {
        let segments: [[TrackSample]]
        let title: String
        var newest: Instant?
        let localTime = try await self.localTime(device: link.device)
        switch link.kind {
        case .live:
            var last: TrackSample?
            if let seen = try await devices.device(named: link.device)?.lastSeenAt {
                last = try await samples.lastPosition(device: link.device, seen: seen)
            }
            segments = last.map { [[$0]] } ?? []
            newest = last?.time
            title = "\(link.device) — live position"
        case .range(let from, let to):
            segments = try await tracks.sampleSegments(device: link.device, from: from, to: to)
            newest = segments.last?.last?.time
            title = "\(link.device) — \(localTime.text(from)) to \(localTime.named(to))"
        }
        let first = segments.first?.first?.time ?? now
        let last = (segments.last?.last?.time ?? now) + .milliseconds(1)
        let staleness = Self.staleness(
            kind: link.kind, newest: newest, now: now, threshold: shareStaleAfter)
        var data = MapData(
            device: link.device, day: title,
            segments: segments.map {
                $0.map {
                    [$0.latitude, $0.longitude, Double($0.time.milliseconds), $0.accuracy ?? -1, $0.speed ?? -1, -1]
                }
            },
            details: segments.map { $0.map { _ in ["", ""] } },
            offline: false, lastSeen: nil, gapSeconds: gapThreshold.seconds,
            tileURL: tileURL, offsets: localTime.offsetTable(from: first, to: last),
            zone: localTime.zoneNames(from: first, to: last))
        if case .live = link.kind {
            data.live = true
            data.lastSeenText = newest.map { localTime.named($0) }
        }
        return SharePageHTML(
            data: data, title: title, pointCount: segments.joined().count, staleness: staleness,
            expires: localTime.named(link.expiresAt), leaflet: leafletAvailable)
    }

    /// "last position 3 h ago" when the newest point is older than `threshold`: always for a live
    /// link, for a range only while it is still open (a finished day is not stale).
    static func staleness(kind: ShareKind, newest: Instant?, now: Instant, threshold: Duration) -> String? {
        if case .range(_, let to) = kind, to <= now { return nil }
        guard let newest else { return "no recent position" }
        let age = now - newest
        return age > threshold ? "last position \(PageController.ago(age))" : nil
    }
}
