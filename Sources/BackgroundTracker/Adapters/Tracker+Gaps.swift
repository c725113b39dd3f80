import BackgroundCore
import LocationLog

/// The phone's gap reasons (issue 24 item 3) in the iOS shell: why the previous process ended (at
/// a launch of a tracking app), the settings the app hears, fixes too coarse to record (no fix to
/// be had), the termination notice, and a full disk; and apart from them the upload delays
/// (issue 37 item 3: no network, server unreachable, refused) (kept in memory by `record`, stored with the next
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

    /// A refused fix: one too coarse to record opens "no fix" until the next sample (the rule is
    /// the store's `noteRejectedFix`).
    func noteRejectedFixForGaps(_ fix: LocationFix, _ rejection: FixRejection) {
        let now = clock.now
        try? withStore { try $0.noteRejectedFix(fix, rejection, at: now) }
    }

    /// Core Location could not find the phone (`CLError.locationUnknown`: no GPS, Wi-Fi or cell
    /// fix to be had): "no fix" until the next sample.
    func noteLocationUnknownForGaps() {
        let now = clock.now
        try? withStore { try $0.noteNoFix(detail: "Core Location: location unknown", at: now) }
    }

    /// The gaps that ride with the next batch.
    func gapsForUpload() -> [WireGap] {
        withStore { $0.gapsForNextBatch() }
    }

    /// An upload's outcome: an upload delay opens, changes reason or ends (no network, server
    /// unreachable, refused; the rule is the store's `noteUpload`), and an acknowledgement lets go
    /// of exactly the intervals it names.
    func noteUploadForGaps(_ outcome: UploadOutcome) {
        let now = clock.now
        _ = try? withStore { try $0.noteUpload(outcome, at: now) }
    }
}
