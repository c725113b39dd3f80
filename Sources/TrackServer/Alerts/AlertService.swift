import BackgroundCore
public import Foundation
import LocationLog
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where alerts go: `serve --alert-webhook URL` (repeatable) and `--alert-command CMD`.
public enum AlertTarget: Hashable, Sendable {
    /// `POST` of the event's JSON; any 2xx is delivered.
    case webhook(URL)
    /// `/bin/sh -c CMD` with the event's JSON on standard input and in `BGTRACK_ALERT`; exit 0 is delivered.
    case command(String)

    var stored: String {
        switch self {
        case .webhook(let url): "webhook \(url.absoluteString)"
        case .command(let command): "command \(command)"
        }
    }

    init?(stored: String) {
        if stored.hasPrefix("webhook "), let url = URL(string: String(stored.dropFirst(8))) {
            self = .webhook(url)
        } else if stored.hasPrefix("command ") {
            self = .command(String(stored.dropFirst(8)))
        } else {
            return nil
        }
    }
}

/// Watches for silent devices and delivers alerts, apart from ingest: a slow or dead receiver
/// never holds up an upload.
///
/// Each check compares every device's last-seen time with its threshold (``AlertRules``); a
/// transition is written with its deliveries in one transaction (the outbox), then delivered with
/// retries and back-off. After a restart the stored state prevents a second alert for the same
/// silence, a silence that began while the server was down is alerted at the first check, and
/// undelivered alerts are sent again (at least once).
public struct AlertService: Sendable {
    public var targets: [AlertTarget]
    public var environment: TrackServerEnvironment
    /// How long one delivery may take.
    public var timeout: Duration = .seconds(10)
    /// What the command watchdog and the check loop wait on: the continuous clock in `serve`, a
    /// clock the test moves in tests, so no test waits for real time to pass.
    public var clock: any Clock<Duration>

    public init(
        targets: [AlertTarget], environment: TrackServerEnvironment, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.targets = targets
        self.environment = environment
        self.clock = clock
    }

    /// One round: queue what changed, then try every due delivery. Returns the deliveries made.
    @discardableResult
    public func tick() async throws -> (sent: Int, failed: Int) {
        try await check()
        return try await deliver()
    }

    /// Queues an alert for every device whose silence began or ended.
    public func check() async throws {
        let store = environment.store
        let now = environment.clock.now
        let devices = try await store.devices()
        for transition in AlertRules.transitions(
            devices: devices, defaultThreshold: environment.configuration.offlineThreshold, at: now)
        {
            let position = try await store.lastPosition(device: transition.device, seen: transition.lastSeen)
            var event = AlertEvent(
                kind: transition.kind, device: transition.device, lastSeen: transition.lastSeen.milliseconds,
                lastSeenISO: transition.lastSeen.iso8601, lastPosition: position.map { [$0.latitude, $0.longitude] },
                lastPositionTime: position?.time.milliseconds,
                thresholdSeconds: transition.threshold.components.seconds,
                at: now.milliseconds)
            event.reasons = try await silenceReasons(transition, devices: devices, at: now)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = String(decoding: try encoder.encode(event), as: UTF8.self)
            try await store.recordAlert(
                device: transition.device, silentSince: transition.silentSince,
                deliveries: targets.map { AlertDelivery(target: $0.stored, json: json) }, at: now)
            environment.logger.notice(
                "device \(transition.kind == .silent ? "silent" : "back")",
                metadata: ["device": "\(transition.device)", "last_seen": "\(transition.lastSeen.iso8601)"])
        }
    }

    /// Tries every due delivery once; a failure is retried after 5 s, 10 s, 20 s … up to an hour.
    public func deliver() async throws -> (sent: Int, failed: Int) {
        let store = environment.store
        var sent = 0
        var failed = 0
        for queued in try await store.dueAlerts(at: environment.clock.now, limit: 100) {
            let error: String?
            if let target = AlertTarget(stored: queued.delivery.target) {
                error = await send(queued.delivery.json, to: target)
            } else {
                error = "unknown target \(queued.delivery.target.prefix(80))"
            }
            if let error {
                failed += 1
                let wait = min(5 * (1 << min(queued.attempts, 20)), 3600)
                try await store.alertFailed(
                    id: queued.id, error: error, retryAt: environment.clock.now + .seconds(wait))
                await environment.metrics.add("bgtrack_alerts_failed_total")
                environment.logger.warning(
                    "alert delivery failed",
                    metadata: ["attempt": "\(queued.attempts + 1)", "error": "\(error.prefix(200))"])
            } else {
                sent += 1
                try await store.alertDelivered(id: queued.id)
                await environment.metrics.add("bgtrack_alerts_sent_total")
            }
        }
        return (sent, failed)
    }

    /// `nil` when delivered, else why not.
    private func send(_ json: String, to target: AlertTarget) async -> String? {
        switch target {
        case .webhook(let url):
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.timeoutInterval = Double(timeout.components.seconds)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
            do {
                let (_, response) = try await URLSession.shared.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                return (200...299).contains(status) ? nil : "HTTP \(status)"
            } catch {
                return error.localizedDescription
            }
        case .command(let command):
            return await Self.run(command, input: json, timeout: timeout, clock: clock)
        }
    }

    /// Runs `/bin/sh -c command` with `input` on standard input; `nil` on exit status 0.
    /// The child is terminated when `timeout` has passed on `clock`.
    package static func run(
        _ command: String, input: String, timeout: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) async -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["BGTRACK_ALERT"] = input
        process.environment = environment
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let (ended, continuation) = AsyncStream.makeStream(of: (status: Int32, signalled: Bool).self)
        process.terminationHandler = {
            continuation.yield((status: $0.terminationStatus, signalled: $0.terminationReason == .uncaughtSignal))
        }
        do {
            try process.run()
        } catch {
            return "cannot run /bin/sh: \(error.localizedDescription)"
        }
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        // SIGKILL, not `terminate()`'s SIGTERM: `serve` handles SIGTERM through a dispatch source,
        // which sets it to ignored, and a child inherits ignored signals, so SIGTERM never ends it.
        let pid = process.processIdentifier
        let watchdog = Task {
            try await clock.sleep(for: timeout)
            kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        for await end in ended {
            if end.signalled {
                return end.status == SIGKILL
                    ? "the command did not finish within \(timeout) and was killed"
                    : "the command was ended by signal \(end.status)"
            }
            return end.status == 0 ? nil : "the command exited with status \(end.status)"
        }
        return "the command ended without a status"
    }

    /// Ticks every `interval` until the task is cancelled (`bgtrack serve` runs it beside the server).
    public func run(every interval: Duration = .seconds(30)) async {
        while !Task.isCancelled {
            do {
                try await tick()
            } catch {
                environment.logger.error("alert check failed", metadata: ["error": "\(error)"])
            }
            try? await clock.sleep(for: interval)
        }
    }
}
