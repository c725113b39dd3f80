import Hummingbird

/// The HTML pages: the devices (`GET /`), a device's day map (`GET /devices/{id}`) and its range
/// map (`GET /devices/{id}/map`), with the scripts and Leaflet files they load from this server.
/// The pages read through the JSON routes' controllers (devices, track, gaps, map detail), so a
/// page shows what the API answers.
struct PageController: Sendable {
    let auth: Authenticator
    let clock: ServerClock
    let localTime: LocalTimes
    /// The index page's last positions (``SampleStore/lastPosition(device:seen:)``).
    let samples: any SampleStore
    /// The upload delays in the day map's timeline panel.
    let intervals: any GapStore
    /// The day map's timeline panel; `nil` with `serve --no-timeline`.
    let timeline: TimelineUpdater?
    /// The bound on concurrent track reads the range map counts in.
    let readLimiter: ReadLimiter
    let devices: DeviceController
    let tracks: TrackController
    let gaps: GapController
    let maps: MapController
    /// Past it a device counts as offline (`serve --offline-minutes`).
    let offlineThreshold: Duration
    let gapThreshold: Duration
    /// The day map's excluded points (``excluding(_:rules:maximumGap:)``).
    let cleanupRules: CleanupRules
    let tileURL: String?
    /// Where Leaflet is (``LeafletAssets``); `nil` draws the plain map.
    let leafletDirectory: String?

    init(_ environment: TrackServerEnvironment) {
        auth = environment.auth
        clock = environment.clock
        localTime = environment.localTimes
        samples = environment.store
        intervals = environment.store
        timeline = environment.timeline
        readLimiter = environment.readLimiter
        devices = DeviceController(environment)
        tracks = TrackController(environment)
        gaps = GapController(environment)
        maps = MapController(environment)
        offlineThreshold = environment.configuration.offlineThreshold
        gapThreshold = environment.configuration.gapThreshold
        cleanupRules = environment.configuration.cleanupRules
        tileURL = environment.configuration.tileURL
        leafletDirectory = environment.configuration.leafletDirectory
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.get("/devices/{id}", use: mapPage)
        router.get("/devices/{id}/map", use: rangeMapPage)
        router.get("/static/leaflet/**", use: leafletAsset)
        router.get("/static/bgtrack/{name}", use: pageScript)
        router.get("/", use: indexPage)
    }

    /// Whether the map pages use Leaflet.
    var leafletAvailable: Bool { LeafletAssets.isAvailable(in: leafletDirectory) }
}
