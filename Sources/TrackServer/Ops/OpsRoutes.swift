import HTTPTypes
import Hummingbird
import Logging

extension TrackServerEnvironment {
    /// `GET /healthz`: 200 when the database answers, 503 otherwise.
    func health(_ request: Request, context: some RequestContext) async throws -> Response {
        do {
            _ = try await store.devices()
            return try Response.json(["status": "ok"])
        } catch {
            context.logger.error("health check failed", metadata: ["error": "\(error)"])
            return try Response.json(["status": "database unavailable"], status: .serviceUnavailable)
        }
    }

    /// `GET /metrics`: Prometheus text exposition.
    func metricsText(_ request: Request, context: some RequestContext) async throws -> Response {
        let now = clock.now
        let devices = try await store.devices().filter { $0.revokedAt == nil }
        let offline = devices.filter { $0.isOffline(at: now, threshold: configuration.offlineThreshold) }.count
        let text = await metrics.render(
            devices: devices.count, offline: offline, connections: connectionCounters.snapshot,
            groupCommit: committer.counters)
        return Response.text(text, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    /// `GET /openapi.yaml`: the resource file as it is.
    func openAPI(_ request: Request, context: some RequestContext) async throws -> Response {
        let bytes = try OpenAPIDocument.bytes.get()
        return Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: bytes))
    }
}

/// Answers every error as `{"error": "…"}` (framework errors included), counts requests by status,
/// and turns anything unexpected into a logged 500 whose body hides internals.
struct ErrorAndMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    var metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let status: HTTPResponse.Status
        do {
            let response = try await next(request, context)
            await count(request, response.status)
            return response
        } catch let error as APIError {
            status = error.status
            await count(request, status)
            throw error
        } catch let error as any HTTPResponseError {
            status = error.status
            await count(request, status)
            let message =
                status == .notFound
                ? "no route \(request.method) \(ShareSecret.redacting(path: request.uri.path)); see /openapi.yaml"
                : "\(status.reasonPhrase)"
            throw APIError(status, message)
        } catch {
            context.logger.error(
                "request failed",
                metadata: [
                    "error": "\(LogText.bounded("\(error)", limit: 1000))",
                    "path": "\(LogText.bounded(ShareSecret.redacting(path: request.uri.path)))",
                ])
            await count(request, .internalServerError)
            throw APIError(.internalServerError, "the server failed to handle the request; it was logged")
        }
    }

    private func count(_ request: Request, _ status: HTTPResponse.Status) async {
        metrics.countRequest(method: request.method, status: status)
    }
}
