public import BackgroundCore

/// Why the phone took no sample (or fewer) for a while, as far as the phone knows: a sampling gap.
///
/// The phone records these as intervals and sends them with its next upload; the server keeps
/// them and shows each gap on the map and in the timeline with its reason. A gap with no interval
/// is unexplained: the server never guesses a reason, and never gives a gap an upload's reason.
/// Sampling goes on without a network, so "no network" is not one of these: it is an
/// ``UploadDelayReason``, why points arrived late.
public enum GapReason: String, Sendable, Hashable, CaseIterable {
    /// iOS suspended the app and nothing (location update, region, visit, task) woke it.
    case suspended
    /// The system ended the app (memory pressure, watchdog) while it was in the background.
    case terminatedBySystem = "terminated-by-system"
    /// The user force-quit the app from the app switcher.
    case forceQuit = "force-quit"
    /// Location Services were switched off for the whole phone.
    case locationServicesOff = "location-services-off"
    /// The user lowered the app's authorization (When In Use, Never, an expired Allow Once).
    case authorizationLowered = "authorization-lowered"
    /// Precise Location was off, so the fixes were too coarse to record.
    case preciseOff = "precise-off"
    /// Low Power Mode reduced or stopped sampling.
    case lowPowerMode = "low-power-mode"
    /// No usable fix to be had: GPS had no signal (underground, deep indoors) and what Core
    /// Location gave was too coarse to record, or it reported the location unknown.
    case noFix = "no-fix"
    /// The phone's storage was full, so samples could not be stored.
    case storageFull = "storage-full"
    /// The app stopped tracking on purpose: the user turned it off, or the server ended the
    /// session; sampling resumed when tracking was started again.
    case trackingStopped = "tracking-stopped"
    /// iOS kept location from the running app: iOS 18's session diagnostics said it was not in
    /// use (When In Use only) or held no service session (``StopCause``).
    case locationWithheld = "location-withheld"
}

/// One interval in which the phone knows why it took no sample.
public struct GapInterval: Hashable, Sendable {
    /// When the gap began (the last sample or the event that stopped sampling).
    public var start: Instant
    /// When sampling resumed.
    public var end: Instant
    public var reason: GapReason
    /// What the phone adds in words: who relaunched the app, what the authorization fell to.
    public var detail: String?

    public init(start: Instant, end: Instant, reason: GapReason, detail: String? = nil) {
        self.start = start
        self.end = end
        self.reason = reason
        self.detail = detail
    }
}
