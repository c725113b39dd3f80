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
        context.logger.log(
            level: level, "Request",
            metadata: [
                "hb.request.path": .string(LogText.bounded(ShareSecret.redacting(path: request.uri.path))),
                "hb.request.method": .string(request.method.rawValue),
            ])
        return try await next(request, context)
    }
}
