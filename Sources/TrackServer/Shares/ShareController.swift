import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// `POST /v1/shares` body.
struct CreateShareRequest: Decodable {
    var device: String
    /// `live` or `range`.
    var kind: String
    /// Epoch milliseconds, for `range`.
    var from: Int64?
    var to: Int64?
    /// Seconds until the link expires; 7 days when absent.
    var expires_in: Int64?
}

/// The answer to `POST /v1/shares`: the link and its URL path, the only time the secret is shown.
struct CreatedShare: Encodable {
    var share: ShareLink
    var path: String
}

struct ShareList: Encodable {
    var shares: [ShareLink]
}

/// The operator's share links (`/v1/shares`): create, list, revoke. The page a link opens,
/// `GET /s/{secret}`, is ``SharePageController``'s (ShareRoutes.swift).
struct ShareController: Sendable {
    let shares: any ShareStore
    let auth: Authenticator
    let clock: ServerClock
    let bodyReader: BodyReader

    init(_ environment: TrackServerEnvironment) {
        shares = environment.store
        auth = environment.auth
        clock = environment.clock
        bodyReader = environment.bodyReader
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/v1/shares", use: listShares)
        router.post("/v1/shares", use: createShare)
        router.delete("/v1/shares/{id}", use: revokeShare)
    }

    /// `POST /v1/shares`: creates a link; the answer holds its secret path, shown only this once.
    func createShare(_ request: Request, context: some RequestContext) async throws -> Response {
        let creator = try await auth.requireOperator(request)
        let bytes = try await bodyReader.read(request)
        try JSONBody.checkDepth(bytes)
        guard let body = try? JSONDecoder().decode(CreateShareRequest.self, from: Data(bytes)) else {
            throw APIError(
                .badRequest,
                "the body must be {\"device\": NAME, \"kind\": \"live\"|\"range\", \"from\": ms, \"to\": ms, "
                    + "\"expires_in\": seconds}")
        }
        let kind: ShareKind
        switch (body.kind, body.from, body.to) {
        case ("live", nil, nil): kind = .live
        case ("range", .some(let from), .some(let to)):
            kind = .range(from: Instant(milliseconds: from), to: Instant(milliseconds: to))
        default:
            throw APIError(
                .badRequest, "kind must be \"live\" (without from/to) or \"range\" with from and to (epoch ms)")
        }
        let seconds = body.expires_in ?? Int64(SharePolicy.defaultExpiry.components.seconds)
        // Bounded before it becomes a Duration: a huge or negative number is refused, never overflows.
        guard (0...Int64(SharePolicy.maximumExpiry.components.seconds)).contains(seconds) else {
            throw APIError(.badRequest, "expires_in must be between 60 and 31536000 seconds (365 days)")
        }
        do {
            try SharePolicy.check(kind: kind, expiresIn: .seconds(seconds))
        } catch {
            throw APIError(.badRequest, error.description)
        }
        let now = clock.now
        let secret = ShareSecret.mint()
        let link: ShareLink
        do {
            link = try await shares.createShare(
                NewShareLink(
                    device: body.device, kind: kind, secretHash: Tokens.hash(secret),
                    expiresAt: now + .seconds(seconds), createdBy: "operator \(creator)"),
                at: now)
        } catch let error as TrackStoreError {
            throw APIError(.notFound, error.description)
        }
        context.logger.info("share created", metadata: ["share": "\(link.id)", "device": "\(link.device)"])
        var response = try Response.json(CreatedShare(share: link, path: "/s/\(secret)"), status: .created)
        response.headers[.cacheControl] = "no-store"  // the secret, shown once: no cache keeps it
        return response
    }

    /// `GET /v1/shares[?device=NAME]`: every link with its views, expiry and state.
    func listShares(_ request: Request, context: some RequestContext) async throws -> Response {
        _ = try await auth.requireOperator(request)
        let device = request.uri.queryParameters.get("device")
        return try Response.json(ShareList(shares: try await shares.shares(device: device)))
    }

    /// `DELETE /v1/shares/{id}`: the link answers 410 from now on.
    func revokeShare(_ request: Request, context: some RequestContext) async throws -> Response {
        _ = try await auth.requireOperator(request)
        guard let id = context.parameters.get("id").flatMap(Int64.init) else {
            throw APIError(.badRequest, "the share id must be a number, as `GET /v1/shares` lists them")
        }
        guard try await shares.revokeShare(id: id, at: clock.now) else {
            throw APIError(.notFound, "no active share link has id \(id); see GET /v1/shares")
        }
        context.logger.info("share revoked", metadata: ["share": "\(id)"])
        return Response(status: .noContent)
    }
}
