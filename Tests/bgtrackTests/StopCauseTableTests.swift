import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackServer

/// Issue 40 must-show 4: the table of kill and stop causes in docs/ios-policy.md §Causes says
/// what the code does, row for row: the source iOS gives, the gap reason, the user's words, what
/// the app shows and what the timeline and alerts show.
@Suite("The cause table in docs/ios-policy.md matches the code")
struct StopCauseTableTests {
    /// The table's rows, by their first cell.
    static func rows() throws -> [String: [String]] {
        let text = try String(
            contentsOf: DocsMatchCodeTests.root.appendingPathComponent("docs/ios-policy.md"), encoding: .utf8)
        var rows: [String: [String]] = [:]
        for line in text.components(separatedBy: "\n")
        where line.hasPrefix("| `CLServiceSession.") || line.hasPrefix("| `MXBackgroundExitData.") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            rows[cells[0]] = Array(cells)
        }
        return rows
    }

    @Test("every cause has its row: source, gap reason, words, app, timeline and alerts")
    func everyCauseHasItsRow() throws {
        let rows = try Self.rows()
        #expect(rows.count == StopCause.allCases.count, "\(rows.keys.sorted())")
        for cause in StopCause.allCases {
            let row = try #require(rows["`\(cause.source)`"], "no row for \(cause.source)")
            #expect(row[1] == "`\(cause.gapReason.rawValue)`", "\(cause)")
            #expect(row[2] == cause.words, "\(cause)")
            #expect(row[3] == "\"\(cause.statusWords)\"", "\(cause)")
            #expect(row[4] == "\"\(GapWords.phrase(cause.gapReason)); … \(cause.detailWords)\"", "\(cause)")
        }
    }

    @Test("a gap's words in the timeline and alerts carry the cause")
    func theTimelineSaysTheCause() {
        let exits = BackgroundExitCounts(
            begin: .epoch, end: .epoch + .seconds(86_400), counts: [.memoryPressure: 1])
        let gap = GapInterval(
            start: .epoch, end: .epoch + .seconds(600), reason: .terminatedBySystem,
            detail: "killed; iOS relaunched it for a location event; " + (exits.words ?? ""))
        #expect(
            GapWords.sentence(gap)
                == "no samples, the app was not running; killed; iOS relaunched it for a location event; "
                + "cause: iOS needed the memory for other apps (MetricKit)")
        let withheld = GapInterval(
            start: .epoch, end: .epoch + .seconds(600), reason: .locationWithheld,
            detail: StopCause.insufficientlyInUse.detailWords)
        #expect(
            GapWords.sentence(withheld)
                == "no samples, iOS kept location from the app; When In Use only, and the app was not in use")
    }
}
