import HTTPTypes
import Hummingbird
import Logging

/// Operations: `GET /healthz`, `GET /metrics` and `GET /openapi.yaml`.
struct OpsController: Sendable {
    let devices: any DeviceStore
    let detail: any TrackDetailStore
    let clock: ServerClock
    let metrics: ServerMetrics
    let storage: StorageHealth
    let connectionCounters: ConnectionCounters
    let committer: SampleCommitter
    /// Past it a device counts as offline (`serve --offline-minutes`).
    let offlineThreshold: Duration

    init(_ environment: TrackServerEnvironment) {
        devices = environment.store
        detail = environment.store
        clock = environment.clock
        metrics = environment.metrics
        storage = environment.storage
        connectionCounters = environment.connectionCounters
        committer = environment.committer
        offlineThreshold = environment.configuration.offlineThreshold
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/healthz", use: health)
        router.get("/metrics", use: metricsText)
        router.get("/openapi.yaml", use: openAPI)
    }

    /// `GET /healthz`: 503 when the database does not answer; otherwise 200 with `ok`, or with
    /// `degraded` and the reasons when the disk under it is short of space or a write was refused
    /// for space lately (reads still work then; uploads wait: their phones keep them).
    func health(_ request: Request, context: some RequestContext) async throws -> Response {
        do {
            _ = try await devices.devices()
        } catch {
            context.logger.error("health check failed", metadata: ["error": "\(error)"])
            return try Response.json(["status": "database unavailable"], status: .serviceUnavailable)
        }
        let problems = storage.problems(at: clock.now)
        return try Response.json(
            HealthBody(status: problems.isEmpty ? "ok" : "degraded", reasons: problems, freeBytes: storage.freeBytes))
    }

    /// `GET /metrics`: Prometheus text exposition.
    func metricsText(_ request: Request, context: some RequestContext) async throws -> Response {
        let now = clock.now
        let devices = try await devices.devices().filter { $0.revokedAt == nil }
        let offline = devices.filter { $0.isOffline(at: now, threshold: offlineThreshold) }.count
        var text = await metrics.render(
            devices: devices.count, offline: offline, connections: connectionCounters.snapshot,
            groupCommit: committer.counters, storage: storage)
        text +=
            "# HELP bgtrack_detail_pending_days Device-days whose map detail the background worker has yet to work out.\n"
        text += "# TYPE bgtrack_detail_pending_days gauge\n"
        let pending = try await detail.pendingDetailDays()
        text += "bgtrack_detail_pending_days \(pending)\n"
        return Response.text(text, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    /// `GET /openapi.yaml`: the resource file as it is.
    func openAPI(_ request: Request, context: some RequestContext) async throws -> Response {
        let bytes = try OpenAPIDocument.bytes.get()
        return Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: bytes))
    }
}

/// `/healthz`'s answer.
struct HealthBody: Encodable {
    var status: String
    /// Why it is degraded; empty when ok.
    var reasons: [String]
    /// Bytes free on the database's filesystem; absent when the server cannot see it (PostgreSQL).
    var freeBytes: Int64?
}

/// Answers every error as `{"error": "…"}` (framework errors included), counts requests by status,
/// answers a write refused for lack of space 503 with `Retry-After` and a message saying so (and
/// records it for `/healthz`), and turns anything else unexpected into a logged 500 whose body hides
/// internals.
struct ErrorAndMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    var metrics: ServerMetrics
    var storage: StorageHealth
    var clock: ServerClock

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
        } catch let error where StorageHealth.isFull(error) {
            storage.recordFull(error, at: clock.now)
            context.logger.error(
                "write refused: the database's disk is full",
                metadata: [
                    "error": "\(LogText.bounded("\(error)", limit: 300))",
                    "path": "\(LogText.bounded(ShareSecret.redacting(path: request.uri.path)))",
                ])
            await count(request, .serviceUnavailable)
            throw APIError(
                .serviceUnavailable,
                "the server's disk is full: nothing of this request was stored; send it again later (the operator "
                    + "must free space on the database's filesystem; /healthz says how much is left)",
                headers: [.retryAfter: "\(StorageHealth.retryAfterSeconds)"])
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
