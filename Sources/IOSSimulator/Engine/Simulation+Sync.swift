import BackgroundCore
package import LocationLog
import LocationLogTesting

extension Simulation {
    /// Counts a stored sample in the report (coverage, path error).
    mutating func noteSample(_ fix: LocationFix) {
        report.sampleTimes.append(fix.timestamp)
        if !fix.isApproximate { report.preciseSampleTimes.append(fix.timestamp) }
        report.samplePlaces.append((fix.timestamp, Coordinate(latitude: fix.latitude, longitude: fix.longitude)))
    }

    /// What `UIApplication.backgroundTimeRemaining` would say: `nil` in the foreground or while a
    /// background mode keeps the app running, else the time left of the task budget or the wake.
    var backgroundTimeRemaining: Duration? {
        guard let process, process.state == .background else { return nil }
        if !backgroundHolders.isDisjoint(with: .backgroundModes) { return nil }
        let ends = [backgroundTime.stintDeadline, backgroundTime.wakeEnd].compactMap { $0 }.filter { $0 > now }
        return ends.max().map { $0 - now } ?? .zero
    }

    /// Whenever the app runs: the system's background session hands it what it holds (the app
    /// decides its own uploads).
    mutating func syncIfDue() {
        guard isRunning else { return }
        takeTransferOutcome()
    }

    /// Every sampling gap the simulated server stored, by start.
    package var serverGaps: [GapInterval] {
        server.gaps.values.compactMap(\.gap).sorted {
            ($0.start, $0.end, $0.reason.rawValue) < ($1.start, $1.end, $1.reason.rawValue)
        }
    }

    /// Every upload delay the simulated server stored, by start.
    package var serverDelays: [UploadDelay] {
        server.gaps.values.compactMap(\.delay).sorted {
            ($0.start, $0.end, $0.reason.rawValue) < ($1.start, $1.end, $1.reason.rawValue)
        }
    }

    /// Runs a store call; a failure is an invariant violation (the in-memory store never fills up).
    mutating func storeValue<T>(_ body: (LocationStore) throws -> T) -> T? {
        do {
            return try body(store)
        } catch {
            report.violation(now, "store error: \(error)")
            return nil
        }
    }

    /// At the end of the run: every accepted sample is on the server, pending or quarantined.
    mutating func checkNothingLost() {
        // The day's end is read as an observer reads the phone's files, locked or not.
        disk?.unlock()
        let pending = (storeValue { try $0.pendingCount() } ?? 0) + hosted.samplesHeldOutsideStore
        let quarantined = storeValue { try $0.quarantined().count } ?? 0
        let onServer = configuration.peer?.acknowledgedSampleCount ?? server.stored.count
        report.samplesOnServer = onServer
        report.samplesPending = pending
        let accepted = report.sampleTimes.count + carriedOver
        if accepted != onServer + pending + quarantined {
            report.violation(
                now,
                "\(accepted) samples accepted, but \(onServer) on the server + \(pending) pending "
                    + "+ \(quarantined) quarantined")
        }
    }
}
