import ArgumentParser
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LocationLog
import LoopbackServer
import TrackGeometry

/// `bgtrack-bench timeline`: the timeline judged against the simulator's truth (issue 24 item 2),
/// every scenario × strategy over seeds, printed as the Markdown table BENCHMARKS.md carries. The
/// phone uploads through the real sync to a real server on loopback (``EvaluationServer``), and
/// the judged timeline is the one that server's incremental updater derived.
struct TimelineBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline", abstract: "Stays and trips detected vs the simulator's truth (issue 24).")

    @Option(help: "Scenarios, comma-separated.") var scenarios = "commute,home-day,week"
    @Option(help: "Strategies, comma-separated (default: all).") var strategies: String?
    @Option(help: "Seeds 1…N.") var seeds: UInt64 = 20
    @Flag(help: "Print each miss (false/missed stay, edge > 120 s, trip > 5 %) and its samples on stderr.")
    var misses = false
    @Option(
        help: ArgumentHelp(
            "Judge real GPS traces instead: a GeoLife-layout folder (NNN/Trajectory/*.plt); needs --peer.",
            valueName: "dir"))
    var real: String?
    @Option(help: ArgumentHelp("The peer's stays on --real (scripts/peer-stays.py's output).", valueName: "file"))
    var peer: String?
    @Option(help: "With --real: sampling intervals in seconds, comma-separated.") var intervals = "120,180"
    @Option(help: "With --real: ingest paths, comma-separated (default: all).") var paths: String?
    @Flag(help: "With --real: only the TimelineBuilder in process, no server.") var builderOnly = false
    @Option(help: "With --real: the stay radius in metres.") var stayRadius = 100.0
    @Option(help: "With --real: minutes that make a stay.") var stayMinutes = 10.0
    @Option(help: "With --real: minutes without a sample that make a gap.") var gapMinutes = 8.0

    func validate() throws {
        if real != nil, peer == nil {
            throw ValidationError("--real needs --peer FILE: run `python3 scripts/peer-stays.py DIR FILE` first")
        }
        for value in intervals.split(separator: ",") where Int64(value).map({ !(10...3600).contains($0) }) ?? true {
            throw ValidationError("--intervals: \(value) is not a number of seconds between 10 and 3600")
        }
        for name in (paths ?? "").split(separator: ",") where IngestPath(rawValue: String(name)) == nil {
            throw ValidationError(
                "--paths: unknown \(name); use \(IngestPath.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for name in scenarios.split(separator: ",") where Scenario.named(String(name)) == nil {
            throw ValidationError("--scenarios: unknown \(name); use \(Scenario.names.joined(separator: ", "))")
        }
        for name in (strategies ?? "").split(separator: ",") where StrategyName(rawValue: String(name)) == nil {
            throw ValidationError(
                "--strategies: unknown \(name); use \(StrategyName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (1...1000).contains(seeds) else { throw ValidationError("--seeds \(seeds) is outside 1…1000") }
    }

    func run() async throws {
        if let real, let peer {
            try await RealTraceBench.run(
                directory: real, peerFile: peer, intervals: intervals.split(separator: ",").compactMap { Int64($0) },
                paths: paths.map { $0.split(separator: ",").compactMap { IngestPath(rawValue: String($0)) } }
                    ?? IngestPath.allCases, builderOnly: builderOnly,
                settings: TimelineSettings(
                    stayRadius: stayRadius, minimumStay: .milliseconds(Int64(stayMinutes * 60_000)),
                    gapThreshold: .milliseconds(Int64(gapMinutes * 60_000))), misses: misses)
            return
        }
        let chosen =
            strategies.map { $0.split(separator: ",").compactMap { StrategyName(rawValue: String($0)) } }
            ?? StrategyName.allCases
        let names = scenarios.split(separator: ",").map(String.init)
        let misses = self.misses
        let rows = try await EvaluationServer.table(
            scenarios: names, strategies: chosen, seeds: 1...seeds, app: IOSShell(),
            progress: { done, total in FileHandle.standardError.write(Data("\r\(done)/\(total) runs".utf8)) },
            inspect: { configuration, run, connection in
                guard misses else { return }
                let report = try TimelineEvaluation.misses(
                    of: run, configuration: configuration, samples: connection.samples)
                if !report.isEmpty { FileHandle.standardError.write(Data("\n\(report)\n".utf8)) }
            })
        FileHandle.standardError.write(Data("\n".utf8))
        print(TimelineEvaluation.markdown(rows))
    }
}
