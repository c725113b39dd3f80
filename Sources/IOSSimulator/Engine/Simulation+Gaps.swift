import BackgroundCore
package import LocationLog

/// The phone's gap reasons (issue 24 item 3), recorded where the simulated app's code would learn
/// them: at launch (why the previous process ended), when it hears the system's settings, when an
/// upload finds no network, and when the app is told it will terminate. The store's `append`
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

    /// An upload's outcome: no answer opens "no network", an answer closes it.
    mutating func noteUploadForGaps(_ outcome: UploadOutcome) {
        guard recordsGaps else { return }
        let now = self.now
        switch outcome {
        case .networkError(let message):
            _ = storeValue { try $0.openGap(.noNetwork, detail: "first error: \(message)", at: now) }
        case .acknowledged(let ack):
            _ = storeValue { try $0.closeGap(.noNetwork, at: now) }
            _ = storeValue { try $0.acknowledgeGaps(ack.gaps) }
        default:
            // Any HTTP answer means the network was up.
            _ = storeValue { try $0.closeGap(.noNetwork, at: now) }
        }
    }

    /// The gaps to send with the next batch.
    mutating func gapsForUpload() -> [WireGap] {
        recordsGaps ? store.gapsForNextBatch() : []
    }

    /// Every gap interval the simulated server (or the demo's peer) stored, by start.
    package var serverGaps: [GapInterval] {
        server.gaps.values.sorted { ($0.start, $0.end, $0.reason.rawValue) < ($1.start, $1.end, $1.reason.rawValue) }
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
