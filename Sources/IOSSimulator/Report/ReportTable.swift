/// Renders reports as an aligned plain-text table for terminals and logs.
package enum ReportTable {
    package static func render(_ reports: [SimulationReport]) -> String {
        // `code`: which code produced the row, the iOS shell an app links (`shell`) or a test's
        // scripted app. `coverage` counts precise samples;
        // `approx` the slots only approximate (~5 km) ones cover. `assumed`: the share of the
        // energy that rests on policy-table parameters marked as assumptions.
        let header = [
            "strategy", "ios", "auth", "code", "coverage", "approx", "captured", "max gap", "path err m", "≤100 m",
            "bg alive", "after bg", "energy mWh", "assumed", "× floor", "kills", "crashes", "violations", "warnings",
            "notices", "review risks",
        ]
        let rows = reports.map { report -> [String] in
            [
                report.strategy, String(report.ios), report.auth, code(report), fixed(report.coverage, 3),
                fixed(report.coverageApproximate, 3), "\(report.samplesCaptured)/\(report.samplesExpected)",
                duration(report.maxGapS), report.pathErrorMeanM < 0 ? "-" : fixed(report.pathErrorMeanM, 0),
                fixed(report.pathWithin100m, 3), duration(report.backgroundAliveS),
                duration(report.aliveAfterBackgroundS), fixed(report.energyMwh, 1),
                fixed(report.energyAssumedShare, 2),
                report.energyFloorMwh > 0 ? fixed(report.energyMwh / report.energyFloorMwh, 1) : "-",
                report.kills.isEmpty
                    ? "-"
                    : report.kills.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                        .joined(separator: ","),
                String(report.crashes.count), String(report.invariantViolations), String(report.warnings),
                String(report.notifications),
                report.reviewRisks.isEmpty
                    ? "-" : report.reviewRisks.map { String($0.prefix(5)) }.joined(separator: ","),
            ]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let text: Set<String> = ["strategy", "auth", "code", "kills", "review risks"]
        let numeric = Set(header.indices.filter { !text.contains(header[$0]) })
        return all.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return numeric.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }

    /// `shell` for a run of the iOS shell an app links, else the hosted app's name.
    package static func code(_ report: SimulationReport) -> String {
        report.shell == "ios" ? "shell" : report.shell
    }

    /// `1h02m`, `4m10s`, `27s`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total >= 3600 { return "\(total / 3600)h" + (total % 3600 / 60 < 10 ? "0" : "") + "\(total % 3600 / 60)m" }
        if total >= 60 { return "\(total / 60)m" + (total % 60 < 10 ? "0" : "") + "\(total % 60)s" }
        return "\(total)s"
    }

    /// A strategy's initials for narrow columns: `continuous-location` → `cl`; one word stays whole.
    static func abbreviation(_ strategy: String) -> String {
        let words = strategy.split(separator: "-")
        return words.count == 1 ? strategy : String(words.compactMap(\.first))
    }

    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        guard places > 0 else { return sign + String(whole) }
        return "\(sign)\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
