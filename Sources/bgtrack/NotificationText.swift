import IOSSimulator

/// What `simulate` prints about notifications: what iOS let the app show the user, what it did
/// not, and what the app's own status said.
enum NotificationText {
    static func summary(_ report: SimulationReport) -> String {
        var lines = ["", "notifications: \(report.notificationAuthorization)"]
        if report.notificationsNotShown.isEmpty {
            lines.append("  the user was shown every notice the app added")
        } else {
            let notShown = report.notificationsNotShown.sorted { $0.key < $1.key }
            let total = notShown.reduce(0) { $0 + $1.value }
            lines.append(
                "  not shown to the user (notifications not allowed), \(total) notice(s) the app added: "
                    + notShown.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
        }
        if report.notificationAuthorization == "provisional" {
            lines.append("  delivered quietly: in Notification Center, no banner, no sound")
        }
        if !report.appStatus.isEmpty {
            lines.append("the app's status (\(report.shell) shell):")
            lines += report.appStatus.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
