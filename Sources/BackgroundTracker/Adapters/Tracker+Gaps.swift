import BackgroundCore
import LocationLog

/// The phone's gap reasons (issue 24 item 3) in the iOS shell: why the previous process ended (at
/// a launch of a tracking app), the settings the app hears, uploads without an answer, the
/// termination notice, and a full disk (kept in memory by `record`, stored with the next
/// sample). The store keeps them until the server acknowledged exactly them.
extension Tracker {
    /// A launch of an app that was tracking when its last process ended: the silence since its
    /// last sample is explained until the next one.
    func noteLaunchForGaps(_ reason: LaunchReason, locationLaunch: Bool) {
        let cause: GapLaunchCause
        if reason == .user {
            cause = .user
        } else {
            cause = .system(locationLaunch ? "a location event" : "a background task or upload")
        }
        let now = clock.now
        try? withStore { try $0.noteLaunch(cause, at: now) }
    }

    /// The settings as the app heard them now. An app that asked for Always works with Always;
    /// below what it works with is "authorization lowered".
    func noteGapConditions(_ environment: KeepAliveEnvironment) {
        let wanted: LocationAuthorization = state.askedAlways == true ? .always : .whenInUse
        let now = clock.now
        try? withStore {
            try $0.setGapConditions(
                GapConditions.of(environment, wanted: wanted), among: GapConditions.managed, at: now)
        }
    }

    /// Tracking was turned off (by the user, or because the server ended the session). A full
    /// disk that refused samples until now ends here, if the store can take the interval.
    func noteTrackingStoppedForGaps(detail: String) {
        let now = clock.now
        try? withStore { try $0.recordStorageFull(&storageFull, until: now) }
        try? withStore { try $0.noteTrackingStopped(at: now, detail: detail) }
    }

    /// The gaps that ride with the next batch.
    func gapsForUpload() -> [WireGap] {
        withStore { $0.gapsForNextBatch() }
    }

    /// An upload's outcome: no HTTP answer opens "no network", any answer closes it, and an
    /// acknowledgement lets go of exactly the gaps it names.
    func noteUploadForGaps(_ outcome: UploadOutcome) {
        let now = clock.now
        try? withStore { store in
            switch outcome {
            case .networkError(let message):
                try store.openGap(.noNetwork, detail: "first error: \(message)", at: now)
            case .acknowledged(let ack):
                try store.closeGap(.noNetwork, at: now)
                try store.acknowledgeGaps(ack.gaps)
            default:
                try store.closeGap(.noNetwork, at: now)
            }
        }
    }
}
