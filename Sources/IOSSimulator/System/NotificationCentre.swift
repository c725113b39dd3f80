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
package struct NotificationCentre: Sendable {
    /// The user's answer to the prompt.
    var answer: NotificationAnswer = .allow
    private(set) var authorization = NotificationAuthorization.notDetermined
    /// Notices the app added while it could not notify: never delivered (by kind, in order).
    private(set) var withheld: [String] = []

    /// A pending dead-man notice; `version` tells it from the ones it replaced.
    struct Pending: Hashable, Sendable {
        var due: Instant
        var lastSample: Instant
        var version: Int
    }

    private(set) var pending: Pending?
    /// The newest dead-man notice iOS refused (the app may not notify): never delivered, but when
    /// it would have come due the user missed a warning (counted in `withheld` then, once).
    private(set) var refused: Pending?
    private var version = 0
    /// When the last notice scheduled is or was due; `nil` once the app cancelled it.
    private(set) var lastDue: Instant?

    /// `requestAuthorization(options:)` (``NotificationAuthorization/afterRequest(provisional:answer:)``);
    /// returns whether the app may notify.
    @discardableResult
    mutating func requestAuthorization(provisional: Bool) -> Bool {
        authorization = authorization.afterRequest(provisional: provisional, answer: answer)
        return authorization.delivers
    }

    /// Settings › Notifications › the app › Allow Notifications.
    mutating func settingsChanged(allowed: Bool) {
        authorization = allowed ? .authorized : .denied
    }

    /// `add(_:)` of a notice shown at once: `false` (the add fails with
    /// `UNError.notificationsNotAllowed`, nothing is shown) while the app may not notify.
    mutating func post(_ kind: String) -> Bool {
        guard authorization.delivers else {
            withheld.append(kind)
            return false
        }
        return true
    }

    /// Replaces any pending notice with one due at `due`; returns its version, for the event that
    /// delivers it. While the app may not notify the add fails and nothing is scheduled: the
    /// notice is kept aside as `refused` (replacing the pending one, so one outage counts once).
    mutating func schedule(due: Instant, lastSample: Instant) -> Int {
        version += 1
        let notice = Pending(due: due, lastSample: lastSample, version: version)
        guard authorization.delivers else {
            refused = notice
            pending = nil
            return version
        }
        pending = notice
        refused = nil
        lastDue = due
        return version
    }

    /// The app removed its pending notice (tracking stopped on purpose).
    mutating func cancel() {
        pending = nil
        refused = nil
        lastDue = nil
    }

    /// The notice of `version` comes due: it is delivered (and no longer pending) unless it was
    /// replaced or cancelled since.
    mutating func takeDue(version: Int) -> Pending? {
        if let missed = refused, missed.version == version {
            refused = nil
            withheld.append(DeadManNotice.kind)
            return nil
        }
        guard let notice = pending, notice.version == version else { return nil }
        pending = nil
        // Notifications switched off since it was scheduled: iOS shows nothing.
        guard authorization.delivers else {
            withheld.append(DeadManNotice.kind)
            return nil
        }
        return notice
    }
}

/// Whether the app may notify (`UNAuthorizationStatus`, docs/ios-policy.md §Notifications): not
/// determined until the app asks; the user's answer to the prompt, or to Settings, after.
package enum NotificationAuthorization: String, Hashable, Sendable {
    case notDetermined = "not-determined"
    case denied, authorized
    /// Provisional: delivered quietly, to Notification Center only (no banner, no sound).
    case provisional

    /// Whether a notice the app adds is delivered.
    package var delivers: Bool { self == .authorized || self == .provisional }

    /// After `requestAuthorization(options:)`: the first request shows the prompt and the user
    /// answers; a request with `.provisional` while not determined is granted quietly, without a
    /// prompt; a full request from provisional shows the prompt. Once the user has answered, iOS
    /// does not ask again.
    package func afterRequest(provisional: Bool, answer: NotificationAnswer) -> NotificationAuthorization {
        switch self {
        case .notDetermined: return provisional ? .provisional : Self(answering: answer)
        case .provisional: return provisional ? .provisional : Self(answering: answer)
        case .denied, .authorized: return self
        }
    }

    init(answering answer: NotificationAnswer) {
        switch answer {
        case .allow: self = .authorized
        case .deny: self = .denied
        case .provisional: self = .provisional
        }
    }
}

/// How the simulated user answers the app's notification prompt (`--notifications`).
package enum NotificationAnswer: String, Hashable, Sendable, CaseIterable {
    case allow, deny
    /// The user never decides: notices arrive quietly, as after a provisional request.
    case provisional
}

/// The notification centre's side of the app: its requests and what the user is shown.
extension Simulation {
    /// `requestAuthorization(options:)`: the prompt (or the quiet provisional grant) and its answer.
    mutating func requestNotifications(provisional: Bool) {
        let before = notifications.authorization
        notifications.requestAuthorization(provisional: provisional)
        report.notificationAuthorization = notifications.authorization
        let request = provisional ? "requestAuthorization([.provisional])" : "requestAuthorization"
        guard before != notifications.authorization else {
            report.note(now, "notifications: \(request): no prompt, still \(before.rawValue)")
            return
        }
        report.note(now, "notifications: \(request): \(notifications.authorization.rawValue)")
    }

    /// Hosted code's `requestAuthorization` calls, answered in order.
    mutating func answerNotificationRequests(_ calls: [RuntimeCall]) {
        for case .requestNotificationAuthorization(let provisional) in calls {
            requestNotifications(provisional: provisional)
        }
    }

    /// The user switched notifications on or off in Settings.
    mutating func notificationSettingsChanged(allowed: Bool) {
        notifications.settingsChanged(allowed: allowed)
        report.notificationAuthorization = notifications.authorization
        report.note(now, "notifications \(allowed ? "allowed" : "denied") (Settings)")
    }

    /// A notice the app added while it may not notify: `add` fails with
    /// `UNError.notificationsNotAllowed` and the user sees nothing.
    mutating func noteNotificationRefused(_ kind: String) {
        report.notificationsNotShown[kind, default: 0] += 1
        report.note(
            now,
            "notification not shown: \(kind) (notifications \(notifications.authorization.rawValue); "
                + "add fails with UNError.notificationsNotAllowed)")
    }
}
