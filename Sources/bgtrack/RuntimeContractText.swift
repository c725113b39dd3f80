import IOSSimulator

/// The runtime contract's part of `bgtrack simulate`'s text output: the Info.plist, the location
/// authorisation the app reached and when, crashes with their exceptions, warnings.
enum RuntimeContractText {
    static func summary(_ report: SimulationReport) -> String {
        var lines = ["", "Info.plist: \(report.plist)"]
        lines.append(
            "location authorization reached: \(report.authorization)"
                + (report.authorizationChanges.isEmpty ? " (never changed)" : ""))
        lines += report.authorizationChanges.map { "  \($0)" }
        if report.crashes.isEmpty {
            lines.append("crashes: none")
        } else {
            lines.append("crashes: \(report.crashes.count)")
            lines += report.crashes.prefix(5).map { "  \($0.at)  \($0.exception): \($0.reason)" }
        }
        lines.append("warnings: \(report.warnings)")
        lines += report.warningExamples.map { "  \($0)" }
        if report.submitRefusals > 0 { lines.append("BGTaskScheduler.submit refused: \(report.submitRefusals)×") }
        return lines.joined(separator: "\n")
    }
}
