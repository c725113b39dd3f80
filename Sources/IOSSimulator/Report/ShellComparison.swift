/// The compare matrix run twice, by the keep-alive machine directly and through a hosted shell
/// (`bgtrack compare --against-direct --shell ios`): where the two differ in coverage, kills,
/// energy or violations, the shell does something the machine alone does not.
package struct ShellComparison: Codable, Hashable, Sendable {
    package struct Row: Codable, Hashable, Sendable {
        package var strategy: String
        package var ios: Int
        package var auth: String
        package var coverageDirect: Double
        package var coverageShell: Double
        package var killsDirect: Int
        package var killsShell: Int
        package var energyDirectMwh: Double
        package var energyShellMwh: Double
        package var violationsDirect: Int
        package var violationsShell: Int
        package var relaunchesDirect: Int
        package var relaunchesShell: Int
        package var crashesDirect: Int = 0
        package var crashesShell: Int = 0

        /// Coverage, kills and violations equal, energy within 1 % (the shell's own sync timer
        /// adds a few handled events, each charged CPU time).
        package var agrees: Bool {
            coverageDirect == coverageShell && killsDirect == killsShell && violationsDirect == violationsShell
                && abs(energyShellMwh - energyDirectMwh) <= 0.01 * max(energyDirectMwh, 1)
        }

        enum CodingKeys: String, CodingKey {
            case strategy, ios, auth
            case coverageDirect = "coverage_direct"
            case coverageShell = "coverage_shell"
            case killsDirect = "kills_direct"
            case killsShell = "kills_shell"
            case energyDirectMwh = "energy_direct_mwh"
            case energyShellMwh = "energy_shell_mwh"
            case violationsDirect = "violations_direct"
            case violationsShell = "violations_shell"
            case relaunchesDirect = "relaunches_direct"
            case relaunchesShell = "relaunches_shell"
            case crashesDirect = "crashes_direct"
            case crashesShell = "crashes_shell"
        }
    }

    package var shell: String
    package var rows: [Row]

    /// Pairs the reports of the same (strategy, iOS, authorisation, seed) from the two runs.
    package init(direct: [SimulationReport], shell: [SimulationReport]) {
        self.shell = shell.first?.shell ?? "?"
        var hosted: [String: SimulationReport] = [:]
        for report in shell { hosted[Self.key(report)] = report }
        rows = direct.compactMap { report in
            guard let other = hosted[Self.key(report)] else { return nil }
            return Row(
                strategy: report.strategy, ios: report.ios, auth: report.auth, coverageDirect: report.coverage,
                coverageShell: other.coverage, killsDirect: report.kills.values.reduce(0, +),
                killsShell: other.kills.values.reduce(0, +), energyDirectMwh: report.energyMwh,
                energyShellMwh: other.energyMwh, violationsDirect: report.invariantViolations,
                violationsShell: other.invariantViolations, relaunchesDirect: report.relaunches,
                relaunchesShell: other.relaunches, crashesDirect: report.crashes.count,
                crashesShell: other.crashes.count)
        }
    }

    static func key(_ report: SimulationReport) -> String {
        "\(report.strategy)|\(report.ios)|\(report.auth)|\(report.seed)"
    }

    /// Rows that agree (``Row/agrees``).
    package var agreeingCount: Int { rows.filter(\.agrees).count }
    /// Rows whose coverage is the same both ways.
    package var sameCoverageCount: Int { rows.filter { $0.coverageDirect == $0.coverageShell }.count }

    /// A plain-text table: each row's figures both ways and the coverage difference.
    package func table() -> String {
        let header = [
            "strategy", "ios", "auth", "coverage direct", "coverage \(shell)", "Δ coverage", "kills d/\(shell)",
            "energy mWh direct", "energy mWh \(shell)", "crashes d/\(shell)", "violations d/\(shell)",
            "relaunches d/\(shell)",
        ]
        let body = rows.map { row in
            [
                row.strategy, String(row.ios), row.auth, ReportTable.fixed(row.coverageDirect, 3),
                ReportTable.fixed(row.coverageShell, 3),
                ReportTable.fixed(row.coverageShell - row.coverageDirect, 3),
                "\(row.killsDirect)/\(row.killsShell)", ReportTable.fixed(row.energyDirectMwh, 1),
                ReportTable.fixed(row.energyShellMwh, 1), "\(row.crashesDirect)/\(row.crashesShell)",
                "\(row.violationsDirect)/\(row.violationsShell)",
                "\(row.relaunchesDirect)/\(row.relaunchesShell)",
            ]
        }
        let all = [header] + body
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let lines = all.map { cells in
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < 3 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        return
            (lines + [
                "",
                "\(agreeingCount) of \(rows.count) rows agree (same coverage, kills and violations, energy within 1 %); "
                    + "\(sameCoverageCount) have the same coverage; violations: "
                    + "\(rows.map(\.violationsDirect).reduce(0, +)) direct, \(rows.map(\.violationsShell).reduce(0, +)) \(shell)",
            ]).joined(separator: "\n")
    }
}
