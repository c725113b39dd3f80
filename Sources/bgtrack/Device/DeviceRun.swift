import ArgumentParser
import BackgroundCore
import Foundation
import LinuxDevice
import LocationLog

/// `bgtrack device [run] --server URL --token T --db PATH …`: samples a route into the durable
/// store and uploads batches to a `bgtrack serve`, on the wall clock sped up by `--speedup`.
struct DeviceRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Record fixes from a route into the store and upload them in batches (the default).",
        discussion: """
            Example: bgtrack device --server http://localhost:8080 --token $TOKEN --db /tmp/phone.sqlite --speedup 60
            The store survives kills: run it again with the same --db and it carries on where it stopped.
            """
    )

    @Option(help: "The server's base URL (http or https); batches go to <URL>/v1/batches.")
    var server: String

    @Option(help: "The device token from `bgtrack device add` (sent as a bearer token, never printed).")
    var token: String

    @Option(help: "The SQLite store file; created when missing. Its directory must exist.")
    var db: String

    @Option(help: "Seconds between samples (30…3600).")
    var interval: Int = 120

    @Option(help: "Seconds between uploads when the backlog is below a batch (10…86400).")
    var uploadInterval: Int = 1800

    @Option(help: "Samples per batch (1…10000).")
    var batchSize: Int = 500

    @Option(help: "A .gpx or .csv route to replay; default: a built-in walk round People's Square, Shanghai.")
    var route: String?

    @Option(help: "How many times faster than the wall clock time runs (1…10000).")
    var speedup: Double = 1

    @Option(
        help: ArgumentHelp(
            "The device name sent with each batch. By default the one the token belongs to, asked of the "
                + "server at start; given, it must match it (else the run is refused before uploading). "
                + "Required for a --server with a path (another kind of server)."))
    var name: String?

    @Option(help: "The IANA time zone sent with each batch (e.g. Europe/Berlin); default: this host's.")
    var timeZone: String?

    @Option(help: "Stop after this many seconds of (sped-up) device time; default: run until interrupted.")
    var duration: Int?

    @Flag(help: "Commit with an fsync per sample (survives power loss, slower). Default: survives process kill.")
    var fsync = false

    @Option(
        name: .customLong("protocol"),
        help: ArgumentHelp(
            "Upload protocol: native (POST /v1/batches), overland, owntracks or traccar (OsmAnd). A --server "
                + "without a path gets our server's route for it; a --server with a path is used as it is."))
    var uploadProtocol: UploadProtocol = .native

    /// The longest `--duration`: ten years of device time.
    static let maximumDuration = 315_360_000

    /// The device to upload as: asked of our server from the token; for a --server with a path (a
    /// client protocol to another server) it cannot be asked, and --name is required.
    func deviceName(_ serverURL: URL) async throws -> String {
        let path = serverURL.path
        if uploadProtocol != .native, !path.isEmpty, path != "/" {
            guard let name else {
                throw ValidationError(
                    "--server \(server.prefix(200)) has a path (another server's upload URL): pass --name, the device "
                        + "name that server knows")
            }
            return name
        }
        return try await DeviceIdentity.resolve(server: serverURL, token: token, requested: name)
    }

    func validate() throws {
        _ = try TimeZoneArgument.zone(timeZone)
        // Never echo such a URL: it carries a password, and the device authenticates with --token.
        if let url = URL(string: server), url.user != nil || url.password != nil {
            throw ValidationError(
                "--server contains a user name or password; remove them (the device authenticates with --token)")
        }
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else {
            throw ValidationError(
                "--server \(server.prefix(200)) is not an http:// or https:// URL with a host; "
                    + "e.g. --server http://localhost:8080")
        }
        guard !token.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--token is empty; pass the token `bgtrack device add` printed")
        }
        // A token goes into an HTTP header: a pasted line break or space would be sent as-is (or
        // split the header). The message must not print the token.
        guard token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw ValidationError(
                "--token contains spaces, line breaks or non-ASCII characters; pass exactly the token "
                    + "`bgtrack device add` printed (quote it, without a trailing newline)")
        }
        guard (30...3600).contains(interval) else {
            throw ValidationError("--interval \(interval) is outside the allowed 30…3600 seconds")
        }
        guard (10...86_400).contains(uploadInterval) else {
            throw ValidationError("--upload-interval \(uploadInterval) is outside the allowed 10…86400 seconds")
        }
        guard (1...10_000).contains(batchSize) else {
            throw ValidationError("--batch-size \(batchSize) is outside the allowed 1…10000 samples")
        }
        guard speedup.isFinite, (1...10_000).contains(speedup) else {
            throw ValidationError("--speedup \(speedup) is outside the allowed 1…10000")
        }
        // The end instant is computed in milliseconds: an unbounded value overflowed (a trap).
        if let duration, !(1...Self.maximumDuration).contains(duration) {
            throw ValidationError(
                "--duration \(duration) is outside the allowed 1…\(Self.maximumDuration) seconds (ten years)")
        }
        let directory = (db as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.isEmpty ? "." : directory, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw ValidationError("--db \(db): the directory \(directory) does not exist; create it first")
        }
        if let route {
            let lower = route.lowercased()
            guard lower.hasSuffix(".gpx") || lower.hasSuffix(".csv") else {
                throw ValidationError("--route \(route) must be a .gpx or .csv file")
            }
            guard FileManager.default.isReadableFile(atPath: route) else {
                throw ValidationError("--route \(route) does not exist or cannot be read")
            }
        }
    }

    func run() async throws {
        let clock = SpedUpClock(speedup: speedup)
        let start = clock.now
        let (store, openReport) = try LocationStore.open(
            path: db, durability: fsync ? .powerLoss : .processCrash, now: start)
        if let message = openReport.message { print("WARNING: \(message)") }
        let player: RoutePlayer
        if let route {
            player = RoutePlayer(
                points: try RouteFile.read(path: route), start: start, spacing: .seconds(Int64(interval)))
        } else {
            player = .synthetic(start: start)
        }
        // `validate()` checked the URL.
        guard let serverURL = URL(string: server) else { throw ValidationError("--server \(server) is not a URL") }
        let name = try await deviceName(serverURL)
        let transport: any BatchTransport =
            uploadProtocol == .native
            ? URLSessionBatchTransport(server: serverURL, token: token)
            : ClientProtocolTransport(protocol: uploadProtocol, server: serverURL, device: name, token: token)
        let sync = try SyncEngine(
            store: store, transport: transport, device: name,
            configuration: .init(uploadInterval: .seconds(Int64(uploadInterval)), batchSize: batchSize),
            seed: UInt64.random(in: 0...UInt64.max),
            timeZone: uploadProtocol == .native ? try TimeZoneArgument.zone(timeZone).identifier : nil,
            now: { clock.now })
        if let held = try store.syncSnapshot().heldReason {
            // Starting the device again with a token is this shell's "sign in again".
            print("previous run held uploads (\(held)); retrying with the given token")
            try await sync.credentialsChanged()
        }
        let recorder = SampleRecorder(store: store, sampling: .init(interval: .seconds(Int64(interval))))
        let loop = DeviceLoop(
            recorder: recorder, sync: sync, player: player, now: { clock.now },
            report: { line in print("[\(clock.now.iso8601)] \(line)") })
        print(
            "device \(name): store \(db) (\(try store.pendingCount()) pending), server \(serverURL.absoluteString), "
                + "every \(interval) s, uploads every \(uploadInterval) s, speed ×\(speedup)")
        let end = duration.map { start + .seconds(Int64($0)) }
        while true {
            let next = await loop.step()
            if let end, next > end { break }
            try await clock.sleep(until: next)
        }
        print("device \(name): stopped; \(try store.pendingCount()) samples still pending")
    }
}

/// The wall clock, optionally running faster: device time = start + elapsed wall time × speedup.
/// The only place the device reads real time; the loop itself only sees `now`.
struct SpedUpClock: Sendable {
    let speedup: Double
    let wallStart = ContinuousClock.now
    let deviceStart = Instant(seconds: Date().timeIntervalSince1970)

    var now: Instant {
        let elapsed = ContinuousClock.now - wallStart
        return deviceStart + .milliseconds(Int64(Double(elapsed.wholeMilliseconds) * speedup))
    }

    func sleep(until instant: Instant) async throws {
        let wait = instant - now
        guard wait > .zero else { return }
        try await Task.sleep(for: .milliseconds(Int64(Double(wait.wholeMilliseconds) / speedup)))
    }
}
