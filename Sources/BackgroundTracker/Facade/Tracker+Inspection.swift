import BackgroundCore
import Foundation
public import LocationLog

extension Tracker {
    /// The newest samples still on the phone (not yet acknowledged by the server), newest first:
    /// what an app's map shows of the last hours. Empty when the store cannot be read.
    public func recentSamples(limit: Int = 100) -> [Sample] {
        (try? store.newestPending(limit: max(0, min(limit, 10_000)))) ?? []
    }

    /// A plain-text report for a bug report or the share sheet: the status, the sync state and
    /// the newest diagnostics. The token is never included.
    public func diagnosticsReport(limit: Int = 200) -> String {
        var lines = [
            "BackgroundTracker diagnostics",
            "server: \(configuration.server.absoluteString)",
            "device: \(device ?? "the token's own")",
            "strategy: \(configuration.strategy.rawValue)",
            "iOS: \(iosMajor)",
            "tracking: \(status.isTracking)",
            "pending samples: \(status.pending)",
            "last sample: \(status.lastSample.map { "\($0)" } ?? "none")",
            "last upload: \(status.lastUpload.map { "\($0)" } ?? "none")",
            "notices: \(status.notices.map(\.rawValue).joined(separator: ", "))",
        ]
        if let problem = status.lastProblem { lines.append("last problem: \(problem)") }
        lines.append("notification permission: \(status.noticePermission.rawValue)")
        if let problem = status.noticePermission.problem { lines.append(problem) }
        if let refused = status.noticeRefused { lines.append("notice refused: \(refused)") }
        do {
            let diagnostics = try store.diagnostics(limit: max(0, min(limit, 10_000)))
            lines.append("diagnostics (\(diagnostics.count), newest first):")
            for entry in diagnostics {
                lines.append("  \(entry.time.iso8601) \(entry.level.rawValue) \(entry.message)")
            }
        } catch {
            lines.append("diagnostics unreadable: \(error)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
