import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// What `DELETE /v1/devices/{id}?data=true` erased, rows per table.
struct ErasedDevice: Encodable {
    var device: String
    var deleted: [String: Int]
}

/// Erasure (`DELETE /v1/devices/{id}?data=true&confirm={id}`, issue 25): a device and every row
/// of it, in one transaction, by an operator.
struct ErasureController: Sendable {
    let retention: any RetentionStore
    let auth: Authenticator

    init(_ environment: TrackServerEnvironment) {
        retention = environment.store
        auth = environment.auth
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.delete("/v1/devices/{id}", use: deleteDevice)
    }

    /// `DELETE /v1/devices/{id}?data=true&confirm={id}`: erases the device and everything of it in
    /// one transaction. `confirm` must repeat the name, so a mistyped URL erases nothing.
    func deleteDevice(_ request: Request, context: some RequestContext) async throws -> Response {
        let actor = try await auth.requireOperator(request)
        let device = try context.parameters.require("id")
        let query = request.uri.queryParameters
        guard query.get("data") == "true" else {
            throw APIError(
                .badRequest,
                "deleting a device erases its data: add ?data=true&confirm=NAME (export it first with "
                    + "GET /v1/devices/{id}/track); to stop its token only, use `bgtrack device revoke`")
        }
        guard query.get("confirm") == device else {
            throw APIError(.badRequest, "confirm must repeat the device name (confirm=\(HTML.percentEncoded(device)))")
        }
        guard let deleted = try await retention.eraseDevice(named: device) else {
            throw APIError(.notFound, "no device is registered as \"\(device)\"")
        }
        context.logger.notice(
            "device erased",
            metadata: ["device": "\(device)", "by": "\(actor)", "rows": "\(deleted.values.reduce(0, +))"])
        return try Response.json(ErasedDevice(device: device, deleted: deleted))
    }
}
