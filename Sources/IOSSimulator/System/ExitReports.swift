import BackgroundCore
import LocationLog

/// MetricKit's background-exit reports for one app: the exits of each report period counted by
/// cause, and the reports of ended periods not yet delivered (MetricKit hands them to the app's
/// subscribers when it next runs, after the fact). A period without background exits says
/// nothing about a kill and makes no report. It is system state: it outlives the process.
///
/// ```swift
/// var reports = ExitReports()
/// reports.count(.memoryPressure)
/// reports.closePeriods(at: now, from: start, period: .seconds(86_400))
/// reports.takeDue()                       // → nil until the period is over
/// ```
struct ExitReports: Sendable {
    /// Which period is open (0 from the start of the day).
    private var period = 0
    /// The open period's exits by cause.
    private var tally: [StopCause: Int] = [:]
    /// Reports of ended periods, oldest first.
    private var due: [BackgroundExitCounts] = []

    /// Counts an exit in the open period (close the ended ones first).
    mutating func count(_ cause: StopCause) {
        tally[cause, default: 0] += 1
    }

    /// Ends the periods that are over at `now` (periods of `length` from `start`).
    mutating func closePeriods(at now: Instant, from start: Instant, period length: Duration) {
        while now >= start + length * (period + 1) {
            let begin = start + length * period
            let counts = BackgroundExitCounts(begin: begin, end: begin + length, counts: tally)
            if !counts.counts.isEmpty { due.append(counts) }
            tally = [:]
            period += 1
        }
    }

    /// The oldest report not yet delivered, taken.
    mutating func takeDue() -> BackgroundExitCounts? {
        due.isEmpty ? nil : due.removeFirst()
    }
}
