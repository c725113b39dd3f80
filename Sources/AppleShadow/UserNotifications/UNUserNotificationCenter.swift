#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/usernotifications/unusernotificationcenter
    open class UNUserNotificationCenter: NSObject {
        private nonisolated(unsafe) static let instance = UNUserNotificationCenter()

        override internal init() {}

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
    open class UNNotificationContent: NSObject {
        internal var storedTitle = ""
        internal var storedBody = ""

        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationcontent/title
        open var title: String { storedTitle }
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationcontent/body
        open var body: String { storedBody }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unmutablenotificationcontent
    open class UNMutableNotificationContent: UNNotificationContent {
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
    open class UNNotificationTrigger: NSObject {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationtrigger/repeats
        open var repeats: Bool { storedRepeats }

        private let storedRepeats: Bool

        internal init(repeating: Bool) {
            self.storedRepeats = repeating
        }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/untimeintervalnotificationtrigger
    open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger {
        /// Apple: https://developer.apple.com/documentation/usernotifications/untimeintervalnotificationtrigger/timeinterval
        open var timeInterval: TimeInterval { storedTimeInterval }

        private let storedTimeInterval: TimeInterval

        /// Apple: https://developer.apple.com/documentation/usernotifications/untimeintervalnotificationtrigger/init(timeinterval:repeats:)
        public init(timeInterval: TimeInterval, repeats: Bool) {
            self.storedTimeInterval = timeInterval
            super.init(repeating: repeats)
        }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest
    open class UNNotificationRequest: NSObject {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest/identifier
        open var identifier: String { storedIdentifier }
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest/content
        open var content: UNNotificationContent { storedContent }
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest/trigger
        open var trigger: UNNotificationTrigger? { storedTrigger }

        private let storedIdentifier: String
        private let storedContent: UNNotificationContent
        private let storedTrigger: UNNotificationTrigger?

        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationrequest/init(identifier:content:trigger:)
        public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
            self.storedIdentifier = identifier
            self.storedContent = content
            self.storedTrigger = trigger
        }
    }
#endif
