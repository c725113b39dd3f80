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

        /// Apple: https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/requestauthorization(options:completionhandler:)
        open func requestAuthorization(
            options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
        ) {
            // iOS answers on a queue of its own; the shadow answers at once, on the caller's thread.
            UserNotificationsShadow.backend.answerAuthorizationRequest(options: options, completionHandler)
        }

        /// Apple: https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/getnotificationsettings(completionhandler:)
        open func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
            completionHandler(
                UNNotificationSettings(authorizationStatus: UserNotificationsShadow.backend.authorizationStatus))
        }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationoptions
    public struct UNAuthorizationOptions: OptionSet, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/init(rawvalue:)
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/rawvalue
        public let rawValue: UInt

        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/sound
        public static var sound: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 1) }
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/alert
        public static var alert: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 2) }
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/provisional
        public static var provisional: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 6) }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationstatus
    public enum UNAuthorizationStatus: Int, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationstatus/notdetermined
        case notDetermined = 0
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationstatus/denied
        case denied = 1
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationstatus/authorized
        case authorized = 2
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationstatus/provisional
        case provisional = 3
        /// Apple: https://developer.apple.com/documentation/usernotifications/unauthorizationstatus/ephemeral
        case ephemeral = 4
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationsettings
    open class UNNotificationSettings: NSObject {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unnotificationsettings/authorizationstatus
        open var authorizationStatus: UNAuthorizationStatus { storedStatus }

        private let storedStatus: UNAuthorizationStatus

        internal init(authorizationStatus: UNAuthorizationStatus) {
            self.storedStatus = authorizationStatus
        }
    }

    /// Apple: https://developer.apple.com/documentation/usernotifications/unerror
    public struct UNError: Swift.Error, Hashable, Sendable {
        /// Apple: https://developer.apple.com/documentation/usernotifications/unerror/code
        public enum Code: Int, Hashable, Sendable {
            /// Apple: https://developer.apple.com/documentation/usernotifications/unerror/code/notificationsnotallowed
            case notificationsNotAllowed = 1
        }

        /// Apple: https://developer.apple.com/documentation/usernotifications/unerror/code-swift.property
        public let code: Code

        /// Apple: https://developer.apple.com/documentation/usernotifications/unerror/init(_:userinfo:)
        public init(_ code: Code, userInfo: [String: Any] = [:]) { self.code = code }

        /// Apple: https://developer.apple.com/documentation/usernotifications/unerror/notificationsnotallowed
        public static var notificationsNotAllowed: Code { .notificationsNotAllowed }
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
