#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/usernotifications/unusernotificationcenter
    open class UNUserNotificationCenter: @unchecked Sendable {
        private static let instance = UNUserNotificationCenter()

        internal init() {}

        /// Apple: https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/current()
        open class func current() -> UNUserNotificationCenter { instance }

        /// Apple: https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/add(_:withcompletionhandler:)
        open func add(
            _ request: UNNotificationRequest,
            withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
        ) {
            // The request reaches the system whether or not the caller wants to hear back.
            (completionHandler ?? { _ in })(UserNotificationsShadow.backend.add(request))
        }

        /// Apple: https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/removependingnotificationrequests(withidentifiers:)
        open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
            UserNotificationsShadow.backend.removePendingNotificationRequests(withIdentifiers: identifiers)
        }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationcontent
    open class UNNotificationContent: NSObject, @unchecked Sendable {
        internal var storedTitle = ""
        internal var storedBody = ""

        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationcontent/title
        open var title: String { storedTitle }
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationcontent/body
        open var body: String { storedBody }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unmutablenotificationcontent
    open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unmutablenotificationcontent/title
        open override var title: String {
            get { storedTitle }
            set { storedTitle = newValue }
        }
        /// Apple: https://developer.apple.com/documentation/usernotifications/unmutablenotificationcontent/body
        open override var body: String {
            get { storedBody }
            set { storedBody = newValue }
        }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationtrigger
    open class UNNotificationTrigger: NSObject, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationtrigger/repeats
        public let repeats: Bool

        internal init(repeating: Bool) {
            self.repeats = repeating
        }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/untimeintervalnotificationtrigger
    open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/usernotifications/untimeintervalnotificationtrigger/timeinterval
        public let timeInterval: TimeInterval

        /// Apple: https://developer.apple.com/documentation/usernotifications/untimeintervalnotificationtrigger/init(timeinterval:repeats:)
        public init(timeInterval: TimeInterval, repeats: Bool) {
            self.timeInterval = timeInterval
            super.init(repeating: repeats)
        }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest
    open class UNNotificationRequest: NSObject, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest/identifier
        public let identifier: String
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest/content
        public let content: UNNotificationContent
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest/trigger
        public let trigger: UNNotificationTrigger?

        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest/init(identifier:content:trigger:)
        public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
            self.identifier = identifier
            self.content = content
            self.trigger = trigger
        }
    }
#endif
