import Foundation

/// Draws the comparison as an SVG scatter chart: coverage (up is better) against energy on a
/// log scale (left is better). One colour per strategy; filled marks are Always, hollow marks
/// When-In-Use; iOS 17 marks are larger. Hovering a mark shows its figures.
package enum ComparisonChart {
    static let palette = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf",
        "#bcbd22",
    ]

    package static func svg(_ reports: [SimulationReport], title: String) -> String {
        let width = 960.0
        let height = 570.0
        let plot = (left: 80.0, top: 70.0, right: 720.0, bottom: 490.0)
        let strategies = reports.map(\.strategy).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let energies = reports.map { max($0.energyMwh, 1) }
        let lowDecade = floor(log10(energies.min() ?? 1))
        let highDecade = ceil(log10(max(energies.max() ?? 10, 10)))
        func x(_ energy: Double) -> Double {
            let fraction = (log10(max(energy, 1)) - lowDecade) / max(highDecade - lowDecade, 1)
            return plot.left + fraction * (plot.right - plot.left)
        }
        func y(_ coverage: Double) -> Double { plot.bottom - coverage * (plot.bottom - plot.top) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(plot.left)" y="28" font-size="17" font-weight="bold">\(escape(title))</text>
            <text x="\(plot.left)" y="46" fill="#555">Up is more samples captured; left is less energy. \
            Filled = Always, hollow = When-In-Use, large = iOS 17.</text>

            """
        for step in 0...10 {
            let coverage = Double(step) / 10
            svg += line(plot.left, y(coverage), plot.right, y(coverage), stroke: "#e5e5e5")
            svg += text(plot.left - 8, y(coverage) + 4, String(format: "%.1f", coverage), anchor: "end")
        }
        var decade = lowDecade
        while decade <= highDecade {
            let energy = pow(10, decade)
            svg += line(x(energy), plot.top, x(energy), plot.bottom, stroke: "#e5e5e5")
            svg += text(x(energy), plot.bottom + 18, String(format: "%.0f", energy), anchor: "middle")
            decade += 1
        }
        svg += line(plot.left, plot.bottom, plot.right, plot.bottom, stroke: "#333")
        svg += line(plot.left, plot.top, plot.left, plot.bottom, stroke: "#333")
        svg += text(
            (plot.left + plot.right) / 2, plot.bottom + 40, "energy for the app (mWh, log scale)", anchor: "middle")
        svg += """
            <text x="24" y="\((plot.top + plot.bottom) / 2)" transform="rotate(-90 24 \((plot.top + plot.bottom) / 2))" \
            text-anchor="middle">coverage (share of 2-minute slots with a sample)</text>

            """
        for report in reports.sorted(by: { ($0.ios == 17 ? 1 : 0) < ($1.ios == 17 ? 1 : 0) }) {
            let color = palette[(strategies.firstIndex(of: report.strategy) ?? 0) % palette.count]
            let radius = report.ios == 17 ? 7.0 : 4.5
            let fill = report.auth == "always" ? color : "white"
            let tip =
                "\(report.strategy), iOS \(report.ios), \(report.auth): coverage \(report.coverage), "
                + "\(report.energyMwh) mWh, max gap \(Int(report.maxGapS)) s, violations \(report.invariantViolations)"
            svg += """
                <circle cx="\(fmt(x(report.energyMwh)))" cy="\(fmt(y(report.coverage)))" r="\(radius)" \
                fill="\(fill)" stroke="\(color)" stroke-width="2" fill-opacity="0.85"><title>\(escape(tip))</title></circle>

                """
        }
        // Name the iOS 17 Always marks that stand clear of the crowd at the bottom.
        var labelled: [(x: Double, y: Double)] = []
        for report in reports where report.ios == 17 && report.auth == "always" && report.coverage >= 0.3 {
            var labelY = y(report.coverage) + 4
            while labelled.contains(where: { abs($0.x - x(report.energyMwh)) < 160 && abs($0.y - labelY) < 14 }) {
                labelY += 16
            }
            labelled.append((x(report.energyMwh), labelY))
            svg += text(
                x(report.energyMwh) - 12, labelY, "\(report.strategy): \(report.energyMwh) mWh", anchor: "end")
        }
        for (index, strategy) in strategies.enumerated() {
            let top = plot.top + Double(index) * 22
            let color = palette[index % palette.count]
            svg += "<circle cx=\"\(plot.right + 30)\" cy=\"\(top + 6)\" r=\"6\" fill=\"\(color)\"/>\n"
            svg += text(plot.right + 44, top + 10, strategy, anchor: "start")
        }
        return svg + "</svg>\n"
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String) -> String {
        "<line x1=\"\(fmt(x1))\" y1=\"\(fmt(y1))\" x2=\"\(fmt(x2))\" y2=\"\(fmt(y2))\" stroke=\"\(stroke)\"/>\n"
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, anchor: String) -> String {
        "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" text-anchor=\"\(anchor)\">\(escape(content))</text>\n"
    }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
