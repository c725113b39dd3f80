import ArgumentParser
import Foundation
import IOSSimulator

struct PolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Print the simulated iPhone's parameter table: value, iOS versions, status and source.")

    @Option(help: "Only the values that apply to this iOS profile.")
    var ios: Int?

    func validate() throws {
        if let ios, IOSProfile(major: ios) == nil {
            throw ValidationError("--ios \(ios) is outside the table; it covers iOS 4 and later.")
        }
    }

    func run() {
        let rows = PolicyTable.all.filter { ios == nil || $0.versions.contains(ios ?? 0) }
        let cells = rows.map { parameter -> [String] in
            let upper = parameter.versions.upperBound >= 99 ? "" : "\(parameter.versions.upperBound)"
            let versions =
                parameter.versions.lowerBound == parameter.versions.upperBound
                ? "\(parameter.versions.lowerBound)" : "\(parameter.versions.lowerBound)–\(upper)"
            return [
                parameter.key.rawValue, "\(parameter.value) \(parameter.unit)", versions, parameter.status.rawValue,
                parameter.source,
            ]
        }
        let header = ["parameter", "value", "iOS", "status", "source"]
        let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max() ?? 0 }
        for row in [header] + cells {
            print(
                row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression))
        }
    }
}
