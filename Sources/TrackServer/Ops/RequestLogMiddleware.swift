import HTTPTypes
import Hummingbird
import Logging

/// Logs each request's method and path, never its query string nor a share link's secret.
///
/// Hummingbird's `LogRequestsMiddleware` logs the whole URI, and tokens travel in query strings
/// (`?token=` for Overland, OsmAnd and the map page's links), so it would copy secrets into the log.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    var level: Logger.Level

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        Self.log(context.logger, level: level, method: request.method, path: request.uri.path)
        return try await next(request, context)
    }

    /// The line for one request (the single-point lane logs its requests with it too).
    /// `client`, for the lane's requests, adds the client and the proxy as the router's
    /// ``ClientAddressMiddleware`` puts them in the request's logger.
    static func log(
        _ logger: Logger, level: Logger.Level, method: HTTPRequest.Method, path: String, client: ForwardedClient? = nil
    ) {
        var metadata: Logger.Metadata = [
            "hb.request.path": .string(LogText.bounded(ShareSecret.redacting(path: path))),
            "hb.request.method": .string(method.rawValue),
        ]
        if let address = client?.address { metadata["client"] = .string(address) }
        if let proxy = client?.proxy { metadata["proxy"] = .string(proxy) }
        logger.log(level: level, "Request", metadata: metadata)
    }
}
