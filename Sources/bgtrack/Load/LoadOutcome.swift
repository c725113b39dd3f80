import Foundation
import LoadGenerator

/// A finished `bgtrack load` run: the plan, what was sent and acknowledged, and the store check.
struct LoadOutcome: Sendable {
    var runID: String
    var plan: LoadPlan
    var result: LoadResult
    var check: LoadCheck
    var database: String
    var devicesKept: Bool

    /// No error, nothing lost, duplicated or unexpected.
    var passed: Bool { result.errorCount == 0 && check.isClean }

    var samplesPerSecond: Double { result.seconds > 0 ? Double(result.acknowledgedSamples) / result.seconds : 0 }
    var requestsPerSecond: Double { result.seconds > 0 ? Double(result.acknowledgedRequests) / result.seconds : 0 }

    /// The human report.
    func text() -> String {
        func fixed(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        func milliseconds(_ fraction: Double) -> String {
            result.latencyMilliseconds(fraction).map { fixed($0, 2) } ?? "-"
        }
        var lines: [String] = []
        let perServer = plan.targets.enumerated().map { index, target in
            "\(target) (\(plan.devices.filter { $0.server == index }.count) devices)"
        }
        lines.append("servers       \(perServer.joined(separator: ", "))")
        lines.append(
            "load          \(plan.devices.count) devices, \(plan.protocol.rawValue), \(plan.batch) sample(s) per "
                + "request, \(plan.connections) connection(s)")
        lines.append("duration      \(fixed(result.seconds)) s")
        lines.append(
            "requests      \(result.requests) sent, \(result.acknowledgedRequests) acknowledged "
                + "(\(fixed(requestsPerSecond)) requests/s)")
        lines.append(
            "samples       \(result.acknowledgedSamples) acknowledged (\(fixed(samplesPerSecond)) samples/s)"
                + (result.serverDuplicates > 0
                    ? ", \(result.serverDuplicates) of them already stored (resent after an error)" : ""))
        lines.append(
            "latency ms    p50 \(milliseconds(0.5))  p90 \(milliseconds(0.9))  p99 \(milliseconds(0.99))  "
                + "max \(milliseconds(1))")
        if result.errors.isEmpty {
            lines.append("errors        0")
        } else {
            lines.append("errors        \(result.errorCount):")
            for (kind, count) in result.errors.sorted(by: {
                $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key)
            }) {
                lines.append("  \(count) × \(kind)")
            }
        }
        let stopped = result.devices.filter { $0.stopped != nil }
        if !stopped.isEmpty {
            lines.append(
                "stopped       \(stopped.count) device(s) early, e.g. \(stopped[0].device.name): \(stopped[0].stopped ?? "")"
            )
        }
        lines.append(
            "check         \(check.acknowledged) acknowledged, \(check.stored) stored: \(check.lost) lost, "
                + "\(check.duplicated) duplicated, \(check.unexpected) unexpected")
        for device in check.problems.prefix(10) {
            lines.append(
                "  \(device.name): \(device.acknowledged) acknowledged, \(device.stored) stored, \(device.lost) lost, "
                    + "\(device.duplicated) duplicated, \(device.unexpected) unexpected")
        }
        if check.problems.count > 10 { lines.append("  … and \(check.problems.count - 10) more device(s)") }
        lines.append(
            devicesKept
                ? "devices       load-\(runID)-0…\(plan.devices.count - 1) kept active (--keep-devices)"
                : "devices       load-\(runID)-0…\(plan.devices.count - 1) revoked; their rows are kept in \(database)")
        lines.append(passed ? "result        PASS" : "result        FAIL")
        return lines.joined(separator: "\n")
    }

    /// The report as JSON (`--json`).
    func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Report(self)), as: UTF8.self)
    }

    private struct Report: Encodable {
        struct Latency: Encodable {
            var p50: Double?
            var p90: Double?
            var p99: Double?
            var max: Double?
        }
        var run: String
        var servers: [String]
        var `protocol`: String
        var devices: Int
        var batch: Int
        var connections: Int
        var seconds: Double
        var requests: Int
        var acknowledgedRequests: Int
        var acknowledgedSamples: Int
        var samplesPerSecond: Double
        var requestsPerSecond: Double
        var latencyMilliseconds: Latency
        var errors: [String: Int]
        var stoppedDevices: Int
        var check: LoadCheck
        var devicesKept: Bool
        var passed: Bool

        init(_ outcome: LoadOutcome) {
            let result = outcome.result
            run = outcome.runID
            servers = outcome.plan.targets.map(\.description)
            `protocol` = outcome.plan.protocol.rawValue
            devices = outcome.plan.devices.count
            batch = outcome.plan.batch
            connections = outcome.plan.connections
            seconds = result.seconds
            requests = result.requests
            acknowledgedRequests = result.acknowledgedRequests
            acknowledgedSamples = result.acknowledgedSamples
            samplesPerSecond = outcome.samplesPerSecond
            requestsPerSecond = outcome.requestsPerSecond
            latencyMilliseconds = Latency(
                p50: result.latencyMilliseconds(0.5), p90: result.latencyMilliseconds(0.9),
                p99: result.latencyMilliseconds(0.99), max: result.latencyMilliseconds(1))
            errors = result.errors
            stoppedDevices = result.devices.filter { $0.stopped != nil }.count
            check = outcome.check
            devicesKept = outcome.devicesKept
            passed = outcome.passed
        }
    }
}
