import BackgroundCore
package import LocationLog

/// The phone's gap reasons (issue 24 item 3), recorded where the simulated app's code would learn
/// them: at launch (why the previous process ended), when it hears the system's settings, when a
/// fix is too coarse to record (no fix to be had), when an upload does not get through (an upload
/// delay, apart from the sampling gaps), and when the app is told it will terminate. The store's `append`
/// closes a relaunch's gap, records a same-process silence as suspension and a full storage the
/// app kept in memory (`record`).
///
/// Only the app running the machines directly records them here; a hosted shell records its own
/// (the iOS shell's `Tracker+Gaps`) in the same phone store.
extension Simulation {
    var recordsGaps: Bool { hosted == nil }

    /// At launch: the previous process's end, then the settings the app starts with.
    mutating func noteLaunchForGaps(_ reason: LaunchReason) {
        guard recordsGaps else { return }
        let now = self.now
        let cause: GapLaunchCause = reason == .user ? .user : .system(Self.launchWords(reason))
        _ = storeValue { try $0.noteLaunch(cause, at: now) }
        noteGapConditions()
    }

    /// The app heard the system's settings: open or close the conditions they amount to.
    mutating func noteGapConditions() {
        guard recordsGaps, process != nil else { return }
        let now = self.now
        let active = GapConditions.of(environment, wanted: configuration.authorization)
        _ = storeValue { try $0.setGapConditions(active, among: GapConditions.managed, at: now) }
    }

    /// The app stopped tracking itself (the server ended its session): not a gap the system caused.
    /// A full storage that refused samples until now ends here, as the iOS shell ends it.
    mutating func noteTrackingStoppedForGaps(detail: String) {
        guard recordsGaps else { return }
        let now = self.now
        if !storageIsFull, var storageFull = process?.storageFull {
            _ = storeValue { try $0.recordStorageFull(&storageFull, until: now) }
            process?.storageFull = storageFull
        }
        _ = storeValue { try $0.noteTrackingStopped(at: now, detail: detail) }
    }

    /// The user force-quits the app: a running app hears `applicationWillTerminate`, a suspended
    /// one hears nothing (iOS kills it without running its code).
    mutating func noteForceQuitForGaps() {
        guard recordsGaps, let process, process.state != .suspended else { return }
        let now = self.now
        _ = storeValue { try $0.noteWillTerminate(at: now) }
    }

    /// An upload's outcome: an upload delay opens, changes reason or ends (the store's
    /// `noteUpload`, the rule the iOS shell applies too).
    mutating func noteUploadForGaps(_ outcome: UploadOutcome) {
        guard recordsGaps else { return }
        let now = self.now
        _ = storeValue { try $0.noteUpload(outcome, at: now) }
    }

    /// A refused fix: one too coarse to record (no GPS in the metro) opens "no fix" until the
    /// next sample (the store's `noteRejectedFix`, as in the iOS shell).
    mutating func noteRejectedFixForGaps(_ fix: LocationFix, _ rejection: FixRejection) {
        guard recordsGaps else { return }
        let now = self.now
        _ = storeValue { try $0.noteRejectedFix(fix, rejection, at: now) }
    }

    /// The gaps to send with the next batch.
    mutating func gapsForUpload() -> [WireGap] {
        recordsGaps ? store.gapsForNextBatch() : []
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

    static func launchWords(_ reason: LaunchReason) -> String {
        switch reason {
        case .user: "the user"
        case .significantChange: "a significant location change"
        case .visit: "a visit"
        case .regionExit: "a region exit"
        case .backgroundRefresh: "a background refresh task"
        case .backgroundProcessing: "a background processing task"
        case .silentPush: "a silent push"
        case .backgroundURLSession: "its background uploads"
        }
    }
}
