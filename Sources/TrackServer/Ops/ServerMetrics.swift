import Foundation
import HTTPTypes

/// Counters exposed at `/metrics` in the Prometheus text format (version 0.0.4).
///
/// A handful of counters does not need a metrics backend. A lock keeps them consistent: every
/// request counts itself, and with an actor each count was a hop to the actor's executor and back.
/// The methods stay `async` so callers need not change; none of them suspends.
///
/// Lock-guarded state (an `NSLock`, never held across an `await`; `Synchronization.Mutex` needs
/// macOS 15), hence `@unchecked Sendable`.
public final class ServerMetrics: @unchecked Sendable {
    private struct State {
        var counters: [Key: Int] = [:]
        /// `bgtrack_http_requests_total` by method and status, counted without building a label
        /// dictionary per request; merged into `counters` when read.
        var requests: [RequestKey: Int] = [:]

        /// `bgtrack_samples_total` by protocol and outcome, also merged into `counters` when read.
        var samples: [SampleKey: Int] = [:]

        /// Every counter, the per-request ones included.
        var merged: [Key: Int] {
            var all = counters
            for (key, count) in samples {
                all[
                    Key(name: "bgtrack_samples_total", labels: ["protocol": key.source, "outcome": key.outcome]),
                    default: 0] += count
            }
            for (key, count) in requests {
                all[
                    Key(
                        name: "bgtrack_http_requests_total",
                        labels: ["method": key.method, "status": "\(key.status)"]),
                    default: 0] += count
            }
            return all
        }
    }

    private struct SampleKey: Hashable {
        var source: String
        var outcome: String
    }

    private struct RequestKey: Hashable {
        var method: String
        var status: Int
    }

    private let lock = NSLock()
    private var state = State()

    struct Key: Hashable, Comparable {
        var name: String
        var labels: [String: String]

        var rendered: String {
            let pairs = labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }
            return pairs.isEmpty ? name : "\(name){\(pairs.joined(separator: ","))}"
        }

        static func < (lhs: Key, rhs: Key) -> Bool { lhs.rendered < rhs.rendered }
    }

    static let help: [String: String] = [
        "bgtrack_http_requests_total": "HTTP requests answered, by method and status.",
        "bgtrack_samples_total":
            "Samples received, by protocol and outcome (accepted, duplicate, rejected: quarantined or refused).",
        "bgtrack_batches_refused_total": "Ingest requests refused as a whole (nothing written), by protocol.",
        "bgtrack_quarantined_total":
            "Points kept aside in the quarantine (GET /v1/devices/{id}/rejected), by protocol.",
        "bgtrack_alerts_sent_total": "Silence alerts delivered (webhook or command).",
        "bgtrack_group_commits_total": "Ingest commits of the write pipeline (one transaction and sync each).",
        "bgtrack_group_commit_requests_total":
            "Ingest requests stored by the write pipeline (per commit: divide by commits).",
        "bgtrack_group_commit_samples_total": "Samples in the write pipeline's commits.",
        "bgtrack_ingest_queue_full_total": "Ingest requests answered 503 because the write queue was full.",
        "bgtrack_alerts_failed_total": "Silence alert deliveries that failed and will be retried.",
        "bgtrack_forwarded_requests_total":
            "Requests with forwarding headers: from a --trusted-proxy (trusted=yes, believed) or not (ignored).",
    ]

    public init() {
        // Present from the start, at 0, so an alert on quarantines needs no "absent" rule.
        for source in IngestSource.allCases {
            state.counters[Key(name: "bgtrack_quarantined_total", labels: ["protocol": source.rawValue])] = 0
        }
    }

    func add(_ name: String, _ labels: [String: String] = [:], _ amount: Int = 1) async {
        guard amount != 0 else { return }
        let key = Key(name: name, labels: labels)
        lock.withLock { state.counters[key, default: 0] += amount }
    }

    /// One answered request, for `bgtrack_http_requests_total`.
    func countRequest(method: HTTPRequest.Method, status: HTTPResponse.Status) {
        let key = RequestKey(method: method.rawValue, status: status.code)
        lock.withLock { state.requests[key, default: 0] += 1 }
    }

    /// A request's samples by outcome, under one lock.
    func recordSamples(protocol source: String, accepted: Int, duplicates: Int, rejected: Int) {
        // Every ingest request counts here: keyed by two strings, not a label dictionary, whose
        // hash costs a hasher per label (issue 23 item 5's profile).
        lock.withLock {
            for (outcome, amount) in [("accepted", accepted), ("duplicate", duplicates), ("rejected", rejected)]
            where amount != 0 {
                state.samples[SampleKey(source: source, outcome: outcome), default: 0] += amount
            }
        }
    }

    /// A request that carried forwarding headers: from a trusted proxy (believed) or not (ignored).
    func countForwarding(believed: Bool) {
        let key = Key(name: "bgtrack_forwarded_requests_total", labels: ["trusted": believed ? "yes" : "no"])
        lock.withLock { state.counters[key, default: 0] += 1 }
    }

    func value(_ name: String, _ labels: [String: String] = [:]) async -> Int {
        let key = Key(name: name, labels: labels)
        return lock.withLock { state.merged[key] ?? 0 }
    }

    /// The exposition text, with `bgtrack_devices` gauges supplied by the caller.
    func render(
        devices: Int, offline: Int, connections: ConnectionCounters.Snapshot = .init(),
        groupCommit: SampleCommitter.Counters = .init(), storage: StorageHealth? = nil
    ) async -> String {
        let counters = lock.withLock { state.merged }
        var lines: [String] = []
        var seen: Set<String> = []
        for key in counters.keys.sorted() {
            if seen.insert(key.name).inserted {
                lines.append("# HELP \(key.name) \(Self.help[key.name] ?? key.name)")
                lines.append("# TYPE \(key.name) counter")
            }
            lines.append("\(key.rendered) \(counters[key] ?? 0)")
        }
        lines.append("# HELP bgtrack_devices Registered devices that are not revoked.")
        lines.append("# TYPE bgtrack_devices gauge")
        lines.append("bgtrack_devices \(devices)")
        lines.append("# HELP bgtrack_devices_offline Devices with nothing heard within the offline threshold.")
        lines.append("# TYPE bgtrack_devices_offline gauge")
        lines.append("bgtrack_devices_offline \(offline)")
        let gauges: [(String, String, Int)] = [
            ("bgtrack_connections_open", "HTTP connections open now.", connections.open),
            ("bgtrack_connections_peak", "Most HTTP connections open at once since start.", connections.peak),
        ]
        let counts: [(String, String, Int)] = [
            (
                "bgtrack_connections_refused_total", "Connections answered 503 at the connection limit.",
                connections.refused
            ),
            (
                "bgtrack_connections_timed_out_total{phase=\"header\"}",
                "Connections closed by a timeout, by phase.", connections.headerTimeouts
            ),
            ("bgtrack_connections_timed_out_total{phase=\"request\"}", "", connections.requestTimeouts),
            ("bgtrack_connections_timed_out_total{phase=\"idle\"}", "", connections.idleTimeouts),
            (
                "bgtrack_connections_drain_cut_total",
                "Connections closed while draining an unread body past the bound.",
                connections.drainCuts
            ),
        ]
        let pipeline: [(String, String, Int)] = [
            (
                "bgtrack_group_commits_total", "Ingest commits of the write pipeline (one transaction and sync each).",
                groupCommit.commits
            ),
            (
                "bgtrack_group_commit_requests_total",
                "Ingest requests stored by the write pipeline (divided by commits: requests per commit).",
                groupCommit.requests
            ),
            ("bgtrack_group_commit_samples_total", "Samples in the write pipeline's commits.", groupCommit.samples),
            (
                "bgtrack_ingest_queue_full_total", "Ingest requests answered 503 because the write queue was full.",
                groupCommit.refused
            ),
        ]
        if let storage {
            if let free = storage.freeBytes {
                lines.append(
                    "# HELP bgtrack_storage_free_bytes Bytes free for the server on the database's filesystem.")
                lines.append("# TYPE bgtrack_storage_free_bytes gauge")
                lines.append("bgtrack_storage_free_bytes \(free)")
            }
            lines.append("# HELP bgtrack_storage_full_total Writes refused (answered 503) because the disk was full.")
            lines.append("# TYPE bgtrack_storage_full_total counter")
            lines.append("bgtrack_storage_full_total \(storage.fullCount)")
        }
        for (name, help, value) in gauges {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) gauge")
            lines.append("\(name) \(value)")
        }
        for (name, help, value) in counts + pipeline {
            let family = name.split(separator: "{").first.map(String.init) ?? name
            if !help.isEmpty {
                lines.append("# HELP \(family) \(help)")
                lines.append("# TYPE \(family) counter")
            }
            lines.append("\(name) \(value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
