import ArgumentParser
import BackgroundCore
import Foundation
import TrackServer

/// `bgtrack cleanup`: brings every stored day's detail levels and clean-up flags up to date with
/// the rules given (the backfill after an upgrade, or after changing a rule), a few days per
/// transaction, so it can be stopped and run again; then counts the flagged points.
struct CleanupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cleanup",
        abstract: "Work out map detail levels and clean-up flags for every stored day (resumable; deletes nothing).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var cleanup: CleanupOptions
    @Option(help: "Minutes without a sample that break the track line (as serve --gap-minutes).") var gapMinutes = 10
    @Flag(help: "Re-evaluate every day with these rules, even the ones already done (un-flags what no longer matches).")
    var recheck = false

    func validate() throws {
        guard (1...10_080).contains(gapMinutes) else { throw ValidationError("--gap-minutes must be 1…10080") }
    }

    func run() async throws {
        let rules = try cleanup.rules()
        let gap = Duration.seconds(gapMinutes * 60)
        try await database.withStore { store in
            let detail = store
            let clock = ContinuousClock()
            let started = clock.now
            var fingerprint = rules.fingerprint(maximumGap: gap)
            if recheck {
                // A fingerprint unlike any: every day is marked pending; then the real one.
                _ = try await detail.useDetailRules("recheck")
                fingerprint = rules.fingerprint(maximumGap: gap)
            }
            if try await detail.useDetailRules(fingerprint) { print("rules: \(fingerprint)") }
            let pending = try await detail.pendingDetailDays()
            print("\(pending) device-days to work out")
            var done = 0
            while true {
                let redone = try await detail.refreshPendingDetail(rules: rules, maximumGap: gap, dayLimit: 64)
                if redone == 0 { break }
                done += redone
                if done % 1024 < 64 { print("  \(done) of \(pending) days") }
            }
            let tally = try await detail.flagTally()
            print(String(format: "%d device-days done in %.1f s", done, (clock.now - started).seconds))
            for flag in SampleFlag.allCases where flag != .none {
                print(
                    "  \(flag.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(tally[flag] ?? 0) points flagged"
                )
            }
        }
    }
}
