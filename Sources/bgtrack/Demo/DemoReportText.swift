import BackgroundCore
import Foundation
import IOSSimulator
import LocationLog
import TrackServer

/// The report `bgtrack demo` prints at the end of a day.
struct DemoReportText {
    let day: String
    /// The phone's zone: the day, the faults and the gaps are in its local time.
    let localTime: LocalTime
    /// The day's length in hours (23 or 25 across a DST change), or `--hours`.
    let hours: Double
    /// The first and last sample the server stored for the day.
    let first: Instant?
    let last: Instant?
    let options: DemoCommand
    let report: SimulationReport
    let tally: HTTPPeer.Tally
    let accounting: DemoAccounting
    let mapURL: String
    let mapFile: String
    let indexURL: String
    /// The intervals the server stored for the day, by start: sampling gaps (issue 24 item 3) and
    /// upload delays (issue 37 item 3).
    var intervals: [ReportedInterval] = []

    func render() -> String {
        typealias Faults = Scenario.DemoFaults
        func clock(_ seconds: Double) -> String {
            String(format: "%02d:%02d", Int(seconds) / 3600, Int(seconds) % 3600 / 60)
        }
        func gap(_ seconds: Double) -> String {
            seconds >= 3600
                ? String(format: "%dh%02dm", Int(seconds) / 3600, Int(seconds) % 3600 / 60)
                : String(format: "%dm%02ds", Int(seconds) / 60, Int(seconds) % 60)
        }
        let retries = tally.failedUploads.values.reduce(0, +)
        let failures = tally.failedUploads.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
        let notices = report.notificationsByKind.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
        let kills = report.kills.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
        let verdict = accounting.lost.isEmpty && accounting.duplicated.isEmpty ? "nothing lost" : "SAMPLES LOST"
        var lines = [
            "",
            "Demo day \(day) in \(zoneName): \(options.strategy.rawValue), iOS \(options.ios), \(options.auth.rawValue), "
                + "\(Self.number(hours)) h, seed \(options.seed); code: \(Self.code(report))",
            "",
            "  first sample          \(first.map { localTime.named($0) } ?? "none")",
            "  last sample           \(last.map { localTime.named($0) } ?? "none")",
            "  samples expected      \(report.samplesExpected)  (one per \(120 / 60)-minute slot)",
            "  captured              \(report.samplesCaptured)  (coverage \(String(format: "%.3f", report.coverage)))",
            "  stored on the phone   \(accounting.created)",
            "  uploaded              \(tally.sentIDs.count)  (distinct samples sent)",
            "  acknowledged          \(tally.acknowledgedIDs.count)  (server said stored or duplicate)",
            "  on the server         \(accounting.onServer)",
            "  pending on the phone  \(accounting.pending)",
            "  quarantined           \(accounting.quarantined)",
            "  lost                  \(accounting.lost.count)\(Self.list(accounting.lost))",
            "  duplicated            \(accounting.duplicated.count)\(Self.list(accounting.duplicated))",
            "  longest gap           \(gap(report.maxGapS))",
            "  uploads               \(tally.uploadsAcknowledged) acknowledged of \(tally.uploadAttempts + (tally.failedUploads["no network (outage)"] ?? 0)) attempts",
            "  retries               \(retries)\(failures.isEmpty ? "" : "  (" + failures.joined(separator: ", ") + ")")",
            "  heartbeats            \(tally.heartbeats) sent, \(tally.heartbeatsRejected) rejected, \(tally.logins) logins",
            "  notices to the user   \(report.notifications)\(notices.isEmpty ? "" : "  (" + notices.joined(separator: ", ") + ")")",
            "  kills / relaunches    \(kills.isEmpty ? "none" : kills.joined(separator: ", ")) / \(report.relaunches)",
            "  energy (modelled)     \(String(format: "%.1f", report.energyMwh)) mWh",
            "  invariant violations  \(report.invariantViolations)",
            "",
            "Faults of the day (local time, \(zoneName)):",
            "  \(clock(Faults.forceQuit))  force-quit; the user reopens the app at \(clock(Faults.reopen))",
            "  \(clock(Faults.networkOutage.lowerBound))-\(clock(Faults.networkOutage.upperBound))  no network: "
                + "\(tally.failedUploads["no network (outage)"] ?? 0) uploads waited",
            "  \(clock(Faults.revokeSession))  the server revokes the session: \(tally.heartbeatsRejected) heartbeat(s) refused, "
                + "\(report.notificationsByKind["login-expired"] ?? 0) login-expired notice(s); renewed at \(clock(Faults.renewSession))",
            "  \(clock(Faults.serverRestart))-\(clock(Faults.serverRestart + Faults.serverDownSeconds))  server stopped and restarted "
                + "(\(tally.serverRestarts)×): \(tally.failedUploads["connection refused or lost"] ?? 0) uploads refused",
            "  \(clock(Faults.lowPowerOn))-\(clock(Faults.lowPowerOff))  Low Power Mode",
        ]
        lines += options.events.sorted().map { "  \($0.replacingOccurrences(of: "=", with: "  "))  (--at)" }
        lines += [
            ""
        ]
        lines += gapLines()
        lines += [
            "Result: \(verdict).",
            "Map:   \(mapURL)",
            "       saved as \(mapFile)",
            "Index: \(indexURL)",
        ]
        if report.invariantViolations > 0 {
            lines += report.violationExamples.map { "  violation: \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// The phone's zone's name.
    var zoneName: String { localTime.zone(at: first ?? .epoch).identifier }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    static func list(_ seqs: [Int64]) -> String {
        seqs.isEmpty
            ? ""
            : "  (seq " + seqs.prefix(10).map(String.init).joined(separator: ", ") + (seqs.count > 10 ? ", …)" : ")")
    }

    /// Which code produced the day: the iOS shell an app links, hosted by the simulated iPhone.
    static func code(_ report: SimulationReport) -> String {
        "\(ReportTable.code(report)) (BackgroundTracker, the iOS shell an app links)"
    }
}

extension DemoReportText {
    /// The phone's reasons for its sampling gaps, then apart its upload delays, as the server
    /// stored them and the map shows them.
    func gapLines() -> [String] {
        let gaps = intervals.compactMap(\.gap)
        let delays = intervals.compactMap(\.delay)
        let suspended = gaps.filter { $0.reason == .suspended }
        let explained = gaps.filter { $0.reason != .suspended }
        var lines = ["Sampling gaps: why the phone took no samples, as it reported (on the map; \(zoneName)):"]
        lines += explained.map { "  " + GapWords.label($0, localTime: localTime) }
        if !suspended.isEmpty {
            let minutes = suspended.reduce(0.0) { $0 + ($1.end - $1.start).seconds } / 60
            lines.append(
                "  \(suspended.count) × suspended by iOS with nothing to wake it (\(Int(minutes.rounded())) min in all)"
            )
        }
        if gaps.isEmpty { lines.append("  none reported") }
        lines += ["", "Upload delays: the phone sampled, its points arrived late, as it reported (\(zoneName)):"]
        lines += delays.map { "  " + GapWords.label($0, localTime: localTime) }
        if delays.isEmpty { lines.append("  none reported") }
        lines.append("")
        return lines
    }
}
