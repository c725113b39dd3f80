import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import UserNotifications
#else
    import ShadowUserNotifications
#endif

/// Notification permission (issue 40): the notices, the dead-man notice among them, reach the
/// user only if iOS lets the app notify. The tracker reads the permission at launch and at every
/// return to the foreground, says in ``TrackerStatus/noticePermission`` when notices are off, and
/// reports every notice iOS refused (``TrackerStatus/noticeRefused``) instead of ignoring it.
extension Tracker {
    /// Asks iOS to let the tracker notify, the dead-man notice ("Tracking stopped at 14:02") among
    /// its notices. The first call shows iOS's prompt (alert and sound); iOS asks only once, so
    /// call it when the user turns tracking on, after a line that says why ("so the app can warn
    /// you if tracking stops"). With `provisional`, iOS asks nothing and delivers quietly to
    /// Notification Center (no banner, no sound): the user may not notice a stop.
    ///
    /// ``TrackerStatus/noticePermission`` says the answer once iOS has given it.
    public func requestNoticePermission(provisional: Bool = false) {
        NoticeAdapter.requestPermission(provisional: provisional) { [weak self] in self?.readNoticePermission() }
    }

    /// Reads the permission again (launch, foreground, a refused notice): the user may have
    /// changed it in Settings meanwhile.
    func readNoticePermission() {
        NoticeAdapter.readPermission { [weak self] permission in self?.noticePermissionRead(permission) }
    }

    private func noticePermissionRead(_ permission: NoticePermission) {
        guard permission != status.noticePermission else { return }
        status.noticePermission = permission
        if let problem = permission.problem { log(.warning, problem) }
        publish()
    }

    /// Posts `notice` and remembers it in the status; a refusal is reported.
    func postNotice(_ notice: UserNotice) {
        NoticeAdapter.post(notice) { [weak self] kind, error in self?.noticeRefused(kind, error) }
        status.notices.append(notice)
        status.notices.removeFirst(max(0, status.notices.count - TrackerStatus.noticeLimit))
    }

    /// iOS refused a notice (`add` completed with an error): the user was not told. The status
    /// says so, the diagnostics keep it (once per distinct reason), and the permission is read again.
    func noticeRefused(_ kind: String, _ error: any Error) {
        let text = "iOS did not show the \(kind) notice: \(Self.describe(error))"
        if status.noticeRefused != text { log(.warning, text) }
        status.noticeRefused = text
        readNoticePermission()
        publish()
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? UNError, error.code == .notificationsNotAllowed {
            return "notifications are not allowed for this app (UNError.notificationsNotAllowed)"
        }
        return String(describing: error)
    }
}
