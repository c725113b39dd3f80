import BackgroundCore
import Foundation

#if canImport(UIKit)
    import UserNotifications
#else
    import ShadowUserNotifications
#endif

/// Local notifications: notices become `UNNotificationRequest`s, delivered at once; the dead-man
/// notice is one pending request, replaced by every sample and due when tracking has stopped.
@MainActor
enum NoticeAdapter {
    static let prefix = "com.backgroundtracker."
    static let deadManIdentifier = "com.backgroundtracker.dead-man"
    static let title = "Location tracking"

    static func identifier(for notice: UserNotice) -> String { prefix + "notice." + notice.rawValue }

    static func post(_ notice: UserNotice) {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = notice.message
        // One request per kind: a repeated notice replaces the one still on screen.
        UNUserNotificationCenter.current().add(
            UNNotificationRequest(identifier: identifier(for: notice), content: content, trigger: nil))
    }

    static func scheduleDeadMan(due: Instant, lastSample: Instant, now: Instant) {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = KeepAliveMachine.deadManMessage(lastSample: clockTime(lastSample))
        // A time-interval trigger needs more than zero seconds.
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: max(1, (due - now).seconds), repeats: false)
        UNUserNotificationCenter.current().add(
            UNNotificationRequest(identifier: deadManIdentifier, content: content, trigger: trigger))
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
