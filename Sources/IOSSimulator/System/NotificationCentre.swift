import BackgroundCore

/// The notification centre's side of the dead-man notice (issue 12): at most one pending local
/// notification, replaced by every newer one, delivered when due whatever the app's state
/// (running, suspended, terminated), as iOS delivers scheduled local notifications.
///
/// It is system state: it survives the app's process. A relaunched app learns from it when the
/// last notice scheduled is or was due (`lastDue`, from the pending and delivered requests).
///
/// ```swift
/// var centre = NotificationCentre()
/// let version = centre.schedule(due: later, lastSample: now)   // the simulation queues `version`
/// centre.takeDue(version: version)                              // → the notice, once
/// ```
struct NotificationCentre: Sendable {
    /// A pending dead-man notice; `version` tells it from the ones it replaced.
    struct Pending: Hashable, Sendable {
        var due: Instant
        var lastSample: Instant
        var version: Int
    }

    private(set) var pending: Pending?
    private var version = 0
    /// When the last notice scheduled is or was due; `nil` once the app cancelled it.
    private(set) var lastDue: Instant?

    /// Replaces any pending notice with one due at `due`; returns its version, for the event that
    /// delivers it.
    mutating func schedule(due: Instant, lastSample: Instant) -> Int {
        version += 1
        pending = Pending(due: due, lastSample: lastSample, version: version)
        lastDue = due
        return version
    }

    /// The app removed its pending notice (tracking stopped on purpose).
    mutating func cancel() {
        pending = nil
        lastDue = nil
    }

    /// The notice of `version` comes due: it is delivered (and no longer pending) unless it was
    /// replaced or cancelled since.
    mutating func takeDue(version: Int) -> Pending? {
        guard let notice = pending, notice.version == version else { return nil }
        pending = nil
        return notice
    }
}
