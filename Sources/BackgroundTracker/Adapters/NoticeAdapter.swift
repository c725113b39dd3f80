import BackgroundCore
import Foundation

#if canImport(UIKit)
    import UserNotifications
#else
    import ShadowUserNotifications
#endif

/// Local notifications: notices become `UNNotificationRequest`s, delivered at once; the dead-man
/// notice is one pending request, replaced by every sample and due when tracking has stopped.
///
/// iOS shows them only if the user allowed notifications (``Tracker/requestNoticePermission(provisional:)``);
/// otherwise `add` completes with an error (`UNError.notificationsNotAllowed`), which `refused`
/// hears on the main actor.
@MainActor
enum NoticeAdapter {
    static let prefix = "com.backgroundtracker."
    static let deadManIdentifier = "com.backgroundtracker.dead-man"
    static let title = "Location tracking"

    static func identifier(for notice: UserNotice) -> String { prefix + "notice." + notice.rawValue }

    /// What the app hears when iOS refuses a notice: its kind and `add`'s error.
    typealias Refused = @MainActor @Sendable (_ kind: String, _ error: any Error) -> Void

    static func post(_ notice: UserNotice, refused: @escaping Refused) {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = notice.message
        // One request per kind: a repeated notice replaces the one still on screen.
        UNUserNotificationCenter.current().add(
            UNNotificationRequest(identifier: identifier(for: notice), content: content, trigger: nil),
            withCompletionHandler: completion(notice.rawValue, refused))
    }

    static func scheduleDeadMan(due: Instant, lastSample: Instant, now: Instant, refused: @escaping Refused) {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = KeepAliveMachine.deadManMessage(lastSample: clockTime(lastSample))
        // A time-interval trigger needs more than zero seconds.
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: max(1, (due - now).seconds), repeats: false)
        UNUserNotificationCenter.current().add(
            UNNotificationRequest(identifier: deadManIdentifier, content: content, trigger: trigger),
            withCompletionHandler: completion("dead-man", refused))
    }

    /// `add`'s completion: an error reaches `refused` on the main actor.
    private static func completion(_ kind: String, _ refused: @escaping Refused) -> @Sendable ((any Error)?) -> Void {
        { error in
            guard let error else { return }
            onMain { refused(kind, error) }
        }
    }

    /// Asks iOS to let the app notify: the prompt (alert and sound), or with `provisional` no
    /// prompt and quiet delivery; `answered` runs on the main actor once iOS has answered.
    static func requestPermission(provisional: Bool, answered: @escaping @MainActor @Sendable () -> Void) {
        var options: UNAuthorizationOptions = [.alert, .sound]
        if provisional { options.insert(.provisional) }
        UNUserNotificationCenter.current().requestAuthorization(options: options) { _, _ in onMain(answered) }
    }

    /// Reads whether iOS shows the app's notices now; `read` runs on the main actor.
    static func readPermission(_ read: @escaping @MainActor @Sendable (NoticePermission) -> Void) {
        UNUserNotificationCenter.current().getNotificationSettings { settings in
            // Provisional and ephemeral (and any newer status) deliver quietly at best.
            let status = settings.authorizationStatus
            let permission: NoticePermission =
                status == .authorized
                ? .allowed : status == .denied ? .denied : status == .notDetermined ? .notDetermined : .quiet
            onMain { read(permission) }
        }
    }

    /// Marks the main queue, which the main actor's jobs run on even where a thread other than
    /// the process's first drains it (after `dispatchMain()`, as a test runner does).
    private final class MainQueueMark: @unchecked Sendable {
        // Set on the main queue once, when made, and only read after: safe to share.
        let key = DispatchSpecificKey<Bool>()
        init() { DispatchQueue.main.setSpecific(key: key, value: true) }
    }

    private nonisolated static let mainQueue = MainQueueMark()

    /// Runs `body` on the main actor: at once when called there (the shadow and the simulator
    /// answer on the caller's thread), else on the main queue (UserNotifications calls its
    /// completion handlers on a queue of its own).
    nonisolated static func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        if Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueue.key) == true {
            MainActor.assumeIsolated { body() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
        }
    }

    static func cancelDeadMan() {
        UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: [deadManIdentifier])
    }

    /// One formatter for the process: creating one costs far more than using it, and the
    /// dead-man notice is rescheduled at every sample.
    private static let clockFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        return formatter
    }()

    /// "14:02" in the user's time zone (read at each call: the user may have travelled).
    static func clockTime(_ instant: Instant) -> String {
        // Set only when it changed: setting a formatter's property rebuilds it.
        let zone = TimeZone.current
        if clockFormatter.timeZone != zone { clockFormatter.timeZone = zone }
        return clockFormatter.string(from: Date(timeIntervalSince1970: instant.seconds))
    }
}
