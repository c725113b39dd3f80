import ArgumentParser
import Foundation
import Hummingbird
import Logging
import TrackGeometry
import TrackServer

/// `bgtrack serve`: the track server (ingest, sessions, map page) on one SQLite file, or on a
/// PostgreSQL database that several servers share (`--postgres`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the track server: ingest (native, Overland, OwnTracks, OsmAnd), sessions, map page."
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var connections: ConnectionOptions
    @OptionGroup var cleanup: CleanupOptions
    @OptionGroup var timeline: TimelineOptions
    @Option(help: "Address to listen on; keep 127.0.0.1 unless a TLS proxy sits in front.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 8080
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Reverse proxies (IP or CIDR, e.g. 127.0.0.1/32) whose Forwarded / X-Forwarded-For / X-Forwarded-Proto "
                + "are believed; the client they name then drives rate limits and logs. From any other peer "
                + "those headers are ignored.",
            valueName: "cidr"))
    var trustedProxy: [String] = []
    @Option(help: "Minutes without samples or heartbeats before a device shows as offline (fractions allowed).")
    var offlineMinutes = 10.0
    @Option(help: "Minutes without a sample that break the track line on the map.") var gapMinutes = 10
    @Option(help: "Hours a login session lives after its last heartbeat.") var sessionHours = 24
    @Option(help: "Map tile URL with {z}/{x}/{y}; by default no tiles are fetched (works offline).")
    var tileURL: String?
    @Flag(help: "Accept OsmAnd/Traccar requests without a token (anyone knowing a device name can add points).")
    var allowTokenlessOsmand = false
    @Flag(
        help: ArgumentHelp(
            "Send every OwnTracks and OsmAnd point through the router, none on the event loop's single-point lane "
                + "(the lane answers known tokens' plain points after the same commit, without a task hop)."))
    var noSinglePointLane = false
    @Option(help: "Largest request body in bytes.") var maxBodyBytes = 4 << 20
    @Option(help: "Largest import body in bytes (POST /v1/devices/{id}/imports; streamed, not held in memory).")
    var maxImportBytes: Int64 = 4_000_000_000
    @Option(help: "Largest samples per batch; more answers 413 so clients split.") var maxBatch = 1000
    @Option(help: "Most samples one track read (export or map page) returns; a wider range answers 400.")
    var maxTrackPoints = 200_000
    @Option(help: "Track reads (exports, map pages) streamed at once; one more answers 503 with Retry-After.")
    var maxConcurrentReads = 4
    @Option(help: "Free megabytes on the database's filesystem below which /healthz reports degraded.")
    var minFreeMb = 64
    @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"
    @Option(
        help: ArgumentHelp(
            "on: concurrent uploads share one commit and one sync (default); off: one transaction per upload. "
                + "Either way an upload is answered only after the commit that holds it."))
    var groupCommit: GroupCommitSwitch = .on
    @Option(help: "Uploads that may wait for a commit; more are answered 503 with Retry-After.")
    var maxPendingUploads = 4_096
    @Option(
        name: .customLong("alert-webhook"),
        help: "POST a JSON event here when a device goes silent and when it comes back (repeatable).")
    var alertWebhooks: [String] = []
    @Option(help: "Run this shell command with the JSON event on standard input (and in $BGTRACK_ALERT).")
    var alertCommand: String?
    @Option(
        help: """
            The IANA time zone of a device that reports none (e.g. Europe/Berlin; `bgtrack time-zones` \
            lists them): where its map days begin and how its times show. Default: this host's zone.
            """)
    var timeZone: String?
    @Option(parsing: .unconditional, help: .hidden) var utcOffset: String?
    @Option(help: "Delete samples, events and quarantined points older than this (30d, 52w); kept forever by default.")
    var retention: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a TCP port (0…65535)") }
        // Upper bounds keep every duration within Int64 milliseconds: `--session-hours 3000000000000`
        // passed before and trapped on the first login when `now + TTL` overflowed.
        guard offlineMinutes > 0, offlineMinutes <= 1_000_000, (1...1_000_000).contains(gapMinutes),
            (1...1_000_000).contains(sessionHours)
        else {
            throw ValidationError(
                "--offline-minutes, --gap-minutes and --session-hours must be positive and at most 1000000")
        }
        guard maxImportBytes > 0 else {
            throw ValidationError("--max-import-bytes must be positive (the largest import body in bytes)")
        }
        guard maxBodyBytes > 0, maxBatch > 0, maxTrackPoints > 0 else {
            throw ValidationError("--max-body-bytes, --max-batch and --max-track-points must be positive")
        }
        guard (1...1_024).contains(maxConcurrentReads) else {
            throw ValidationError("--max-concurrent-reads \(maxConcurrentReads) must be between 1 and 1024")
        }
        guard (0...100_000_000).contains(minFreeMb) else {
            throw ValidationError("--min-free-mb \(minFreeMb) must be between 0 and 100000000")
        }
        guard (1...1_000_000).contains(maxPendingUploads) else {
            throw ValidationError("--max-pending-uploads \(maxPendingUploads) must be between 1 and 1000000")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel) is not one of trace, debug, info, notice, warning, error")
        }
        if utcOffset != nil {
            throw ValidationError(
                "--utc-offset is gone: days now follow IANA time zones with daylight saving; "
                    + "use --time-zone with a name such as Europe/Berlin (`bgtrack time-zones` lists them)")
        }
        _ = try TimeZoneArgument.zone(timeZone)
        _ = try trustedProxies()
        _ = try alertTargets()
        _ = try retentionPeriod()
        if let tileURL, !(tileURL.contains("{z}") && tileURL.contains("{x}") && tileURL.contains("{y}")) {
            throw ValidationError("--tile-url must contain {z}, {x} and {y}, e.g. http://tiles.local/{z}/{x}/{y}.png")
        }
    }

    func run() async throws {
        // The pages' files beside the executable, before anything is opened: an install that
        // copied the binary alone stops here, saying what to copy where.
        do {
            try PageAssets.check()
        } catch {
            throw ValidationError(error.description)
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardOutput)
        var logger = Logger(label: "bgtrack.serve")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.offlineThreshold = .milliseconds(Int64((offlineMinutes * 60_000).rounded()))
        configuration.gapThreshold = .seconds(gapMinutes * 60)
        configuration.sessionTTL = .seconds(sessionHours * 3600)
        configuration.tileURL = tileURL
        configuration.allowTokenlessOsmAnd = allowTokenlessOsmand
        configuration.singlePointLane = !noSinglePointLane
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxImportBytes = maxImportBytes
        configuration.maxSamplesPerBatch = maxBatch
        configuration.maxTrackPoints = maxTrackPoints
        configuration.maxConcurrentReads = maxConcurrentReads
        configuration.timeZone = try TimeZoneArgument.zone(timeZone)
        configuration.trustedProxies = try trustedProxies()
        configuration.minimumFreeBytes = Int64(minFreeMb) * 1_000_000
        if database.postgresURL == nil {
            configuration.dataDirectory = URL(fileURLWithPath: database.path).deletingLastPathComponent().path
        }
        configuration.connections = connections.limits(logger: logger)
        configuration.groupCommit.enabled = groupCommit == .on
        timeline.apply(to: &configuration)
        configuration.groupCommit.maxPendingRequests = maxPendingUploads
        configuration.retention = try retentionPeriod()
        configuration.cleanupRules = try cleanup.rules()
        let targets = try alertTargets()
        try await database.withStore(logger: logger) { store in
            let environment = TrackServerEnvironment(store: store, configuration: configuration, logger: logger)
            try await environment.useDetailRules()
            switch configuration.secretBox {
            case .success(let box): logger.debug("libsodium loaded", metadata: ["from": "\(box.loadedFrom)"])
            case .failure(let why):
                logger.warning("encrypted OwnTracks messages will be kept aside until libsodium is installed: \(why)")
            }
            logger.notice(
                "serving",
                metadata: [
                    "db": "\(database.name)", "host": "\(host)", "port": "\(port)",
                    "trusted_proxies": "\(configuration.trustedProxies.blocks.map(\.description))",
                ])
            let alerts =
                targets.isEmpty ? nil : Task { await AlertService(targets: targets, environment: environment).run() }
            defer { alerts?.cancel() }
            // Per-device periods may be set while the server runs: the sweeper always runs.
            let sweeper = Task { await RetentionSweeper(environment: environment).run() }
            defer { sweeper.cancel() }
            // Detail levels are worked out here, never by a map read (which must work on a full disk).
            let detail = Task { await DetailWorker(environment: environment).run() }
            defer { detail.cancel() }
            try await ServeLifecycle.run(buildApplication(environment), environment: environment, logger: logger)
        }
    }

    /// `--trusted-proxy` blocks; the error names the value that is not one.
    func trustedProxies() throws -> TrustedProxies {
        do {
            return try TrustedProxies(parsing: trustedProxy)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// `--retention` as a duration, `nil` (forever) when not given.
    func retentionPeriod() throws -> Duration? {
        guard let retention else { return nil }
        guard let seconds = LongDurationArgument.seconds(retention, in: 86_400...(100 * 366 * 86_400)) else {
            throw ValidationError("--retention '\(retention.prefix(20))' must be like 30d or 52w, from 1d to 100 years")
        }
        return .seconds(seconds)
    }

    /// `--alert-webhook` URLs (http or https) and `--alert-command`.
    func alertTargets() throws -> [AlertTarget] {
        var targets: [AlertTarget] = try alertWebhooks.map { text in
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else {
                throw ValidationError(
                    "--alert-webhook '\(text.prefix(80))' is not an http(s) URL, e.g. https://hooks.example/bgtrack")
            }
            return .webhook(url)
        }
        if let alertCommand {
            guard !alertCommand.trimmingCharacters(in: .whitespaces).isEmpty, alertCommand.count <= 4096 else {
                throw ValidationError("--alert-command must be a shell command of at most 4096 characters")
            }
            targets.append(.command(alertCommand))
        }
        return targets
    }
}

/// `--group-commit on|off`.
enum GroupCommitSwitch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}
