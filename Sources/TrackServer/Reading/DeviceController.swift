import BackgroundCore
import HTTPTypes
import Hummingbird

/// One line of `GET /v1/devices`.
struct DeviceSummary: Encodable {
    var name: String
    var samples: Int
    var last_seen: Int64?
    var offline: Bool
    var revoked: Bool
}

/// The devices (`GET /v1/devices`): all of them for an operator, itself for a device.
struct DeviceController: Sendable {
    let devices: any DeviceStore
    let auth: Authenticator
    let clock: ServerClock
    /// Past it a device counts as offline (`serve --offline-minutes`).
    let offlineThreshold: Duration

    init(_ environment: TrackServerEnvironment) {
        devices = environment.store
        auth = environment.auth
        clock = environment.clock
        offlineThreshold = environment.configuration.offlineThreshold
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/v1/devices", use: listDevices)
    }

    /// `GET /v1/devices`: every device for an operator, only itself for a device token.
    func listDevices(_ request: Request, context: some RequestContext) async throws -> Response {
        let owner = try await auth.owner(token: Authenticator.bearer(request, allowQuery: true))
        let now = clock.now
        return try Response.json(
            try await visibleDevices(to: owner).map {
                DeviceSummary(
                    name: $0.name, samples: $0.sampleCount, last_seen: $0.lastSeenAt?.milliseconds,
                    offline: $0.isOffline(at: now, threshold: offlineThreshold),
                    revoked: $0.revokedAt != nil)
            })
    }

    /// The devices `owner` may read: all of them for an operator, only its own for a device.
    func visibleDevices(to owner: TokenOwner) async throws -> [DeviceRecord] {
        try await devices.devices().filter { device in
            switch owner {
            case .operator: true
            case .device(let name), .session(let name, _): device.name == name
            }
        }
    }
}
