import Foundation
import HTTPTypes
import Hummingbird

/// Headers on every answer, errors included, that keep the pages' operator token (it can travel in
/// the URL) from leaking and the pages from being framed or sniffed:
/// `Referrer-Policy: no-referrer`, `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, a
/// Content-Security-Policy that allows scripts (never inline ones), styles and images from this
/// server only (plus the operator's tile server for images), and `Cache-Control: no-store` on
/// every page and every answer to a URL with a token.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let contentSecurityPolicy: String
    /// The single-point lane's whole answer headers but `Date`, made once (``laneHeaders(json:noStore:)``):
    /// OsmAnd's empty answer and OwnTracks' `[]`, each without and with `Cache-Control: no-store`.
    private var laneTemplates: (empty: [HTTPFields], json: [HTTPFields]) = ([], [])

    init(tileURL: String?) {
        var images = "'self' data:"
        if let tileURL,
            let url = URL(
                string: tileURL.replacingOccurrences(of: "{", with: "").replacingOccurrences(
                    of: "}", with: "")), let scheme = url.scheme, let host = url.host
        {
            images += " \(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
        }
        // Scripts only from this server's files (``PageScripts``), never inline: an injected
        // `<script>` or event attribute does not run. The pages' small styles stay inline.
        contentSecurityPolicy =
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src \(images); connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        func templates(json: Bool) -> [HTTPFields] {
            [nil, "token="].map { query in
                var headers: HTTPFields = [.server: "bgtrack", .date: ""]
                if json { headers[.contentType] = "application/json" }
                headers[.contentLength] = json ? "2" : "0"
                secure(&headers, query: query)
                return headers
            }
        }
        laneTemplates = (templates(json: false), templates(json: true))
    }

    /// The headers of the single-point lane's `200` (`[]` as JSON for OwnTracks, an empty body
    /// for OsmAnd), `Date` to be set: the router's headers for the same answer, built once
    /// instead of field by field for every point.
    func laneHeaders(json: Bool, noStore: Bool) -> HTTPFields {
        let pair = json ? laneTemplates.json : laneTemplates.empty
        return pair[noStore ? 1 : 0]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        secure(&response.headers, query: request.uri.query)
        return response
    }

    /// Adds the headers to an answer's `headers`, given its request's query string (the
    /// single-point lane answers without the router, with the same headers).
    func secure(_ headers: inout HTTPFields, query: String?) {
        headers[.referrerPolicy] = "no-referrer"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.xFrameOptions] = "DENY"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        // A page links with the operator token it was opened with, and a `?token=` URL is the
        // token: neither may stay in a browser's or a proxy's cache.
        if query?.contains("token=") == true || headers[.contentType]?.hasPrefix("text/html") == true {
            headers[.cacheControl] = "no-store"
        }
    }
}

extension HTTPField.Name {
    // Valid header names, so the initialiser cannot fail; a typo would trap at the first request.
    static let referrerPolicy = Self("Referrer-Policy") ?? .contentSecurityPolicy
    static let xFrameOptions = Self("X-Frame-Options") ?? .contentSecurityPolicy
}
