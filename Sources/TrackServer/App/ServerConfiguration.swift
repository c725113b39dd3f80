public import Foundation
import TrackGeometry

/// What an operator can tune on `bgtrack serve`. Defaults suit one phone uploading 500-sample batches.
public struct ServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// Bytes accepted on the wire per request.
    public var maxBodyBytes: Int = 4 << 20
    /// The largest import body (`POST /v1/devices/{id}/imports`): it is streamed, one batch in
    /// memory whatever its size, so this bounds only how long one request keeps the writer busy.
    public var maxImportBytes: Int64 = 4_000_000_000
    /// Bytes a gzip body may inflate to.
    public var maxDecompressedBytes: Int = 16 << 20
    /// Samples accepted in one batch (the phone sends 500); more is a 413 so the phone halves it.
    public var maxSamplesPerBatch: Int = 1000
    /// Samples one track read (API export or map page) may return; a wider range is a 400 asking
    /// for a shorter one, so a year-long `from`…`to` cannot make the server build gigabytes in memory.
    public var maxTrackPoints: Int = 200_000
    /// Track reads (API exports, map pages) running at once; one more is a 503 with `Retry-After`.
    /// Each streams its range a page at a time, so this times a few megabytes bounds their memory.
    public var maxConcurrentReads: Int = 4
    /// Nothing heard for this long marks a device offline.
    public var offlineThreshold: Duration = .seconds(600)
    /// A heartbeat session lives this long after login or its last heartbeat.
    public var sessionTTL: Duration = .seconds(24 * 3600)
    /// No sample for longer than this breaks the track line on the map.
    public var gapThreshold: Duration = .seconds(600)
    /// Accept OsmAnd requests without `token` (the protocol has no other credential).
    public var allowTokenlessOsmAnd: Bool = false
    /// An `{z}/{x}/{y}` tile URL for the map background; `nil` draws no tiles (works offline).
    public var tileURL: String?
    /// The server's IANA time zone (`serve --time-zone`, the host's by default): the zone of a
    /// device that reported none and has no operator's zone (``LocalTime``). UTC here, so tests
    /// and embedders get the same days on every host.
    public var timeZone: TimeZone = TimeZone(identifier: "Etc/UTC") ?? .gmt
    /// Where Leaflet's `leaflet.js` and `leaflet.css` are (Debian's `libjs-leaflet`): the server
    /// serves them itself under `/static/leaflet/`, no CDN. `nil`, or a directory without them,
    /// serves the plain SVG map instead. Defaults to ``LeafletAssets/debianDirectory`` when installed.
    public var leafletDirectory: String? = LeafletAssets.installedDirectory()
    /// Timeouts, the connection limit and how much of an unread body is drained (``ConnectionLimits``).
    public var connections = ConnectionLimits()
    /// The ingest write pipeline: on by default; its bounds and the queue's limit (``GroupCommitLimits``).
    public var groupCommit = GroupCommitLimits()
    /// How long samples, events and quarantined points are kept (`serve --retention`); `nil`
    /// keeps them forever (the default). A device's own period (`device set --retention`) wins.
    public var retention: Duration?
    /// The directory of the SQLite database, whose free space `/healthz` and `/metrics` report;
    /// `nil` (PostgreSQL, tests in memory) reports only writes refused for space.
    public var dataDirectory: String?
    /// Below this many free bytes there `/healthz` reports degraded (`serve --min-free-mb`, 64 MB).
    public var minimumFreeBytes: Int64 = 64_000_000
    /// The reverse proxies whose `Forwarded` / `X-Forwarded-For` / `X-Forwarded-Proto` are believed
    /// (`serve --trusted-proxy`); none by default, so the client is always the socket's peer.
    public var trustedProxies = TrustedProxies()
    /// Share pages served per link and per client address (``ShareRateLimiter``).
    public var shareLimits = ShareRateLimiter.Limits()
    /// A share page notes "last position … ago" when its newest point is older than this.
    public var shareStaleAfter: Duration = .seconds(900)
    /// Which stored points the map leaves out as excluded (kept, flagged, exported): issue 25 item 5.
    public var cleanupRules = CleanupRules()
    /// The stays-and-trips timeline (issue 24): its settings, and whether it is computed at all.
    public var timeline = TimelineUpdater.Settings()
    public var timelineEnabled = true
    /// Whether single OwnTracks and OsmAnd points of known tokens are answered on the event loop,
    /// without the router (``SinglePointLane``); `serve --no-single-point-lane` turns it off.
    public var singlePointLane = true
    /// libsodium for OwnTracks' encrypted messages: the system's, loaded at run time; a test
    /// gives a failed load to see messages kept aside with the reason.
    package var secretBox: Result<SecretBox, SecretBoxUnavailable> = SecretBox.system

    public init() {}
}
