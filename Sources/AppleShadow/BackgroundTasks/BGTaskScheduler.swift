#if !canImport(UIKit)
    public import Foundation
    public import Dispatch

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler
    open class BGTaskScheduler: NSObject {
        private nonisolated(unsafe) static let instance = BGTaskScheduler()

        override internal init() {}

        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/shared
        open class var shared: BGTaskScheduler { instance }

        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)
        open func register(
            forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
            launchHandler: @escaping (BGTask) -> Void
        ) -> Bool {
            BackgroundTasksShadow.backend.register(taskIdentifier: identifier, launchHandler: launchHandler)
        }

        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:)
        open func submit(_ taskRequest: BGTaskRequest) throws { try BackgroundTasksShadow.backend.submit(taskRequest) }
    }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest
    open class BGTaskRequest: NSObject {
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/identifier
        open var identifier: String { storedIdentifier }
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/earliestbegindate
        open var earliestBeginDate: Date?

        private let storedIdentifier: String

        internal init(taskIdentifier: String) {
            self.storedIdentifier = taskIdentifier
        }
    }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtaskrequest
    open class BGAppRefreshTaskRequest: BGTaskRequest {
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtaskrequest/init(identifier:)
        public init(identifier: String) { super.init(taskIdentifier: identifier) }
    }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest
    open class BGProcessingTaskRequest: BGTaskRequest {
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/init(identifier:)
        public init(identifier: String) { super.init(taskIdentifier: identifier) }
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresexternalpower
        open var requiresExternalPower = false
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresnetworkconnectivity
        open var requiresNetworkConnectivity = false
    }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask
    open class BGTask: NSObject {
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/identifier
        open var identifier: String { storedIdentifier }
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler
        open var expirationHandler: (() -> Void)?

        private let storedIdentifier: String

        internal init(taskIdentifier: String) {
            self.storedIdentifier = taskIdentifier
        }

        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)
        open func setTaskCompleted(success: Bool) {
            BackgroundTasksShadow.backend.taskCompleted(self, success: success)
        }
    }
#endif

#if !canImport(UIKit)
    extension BGTaskScheduler {
        /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error
        public struct Error: Swift.Error, Hashable, Sendable {
            /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code
            public enum Code: Int, Hashable, Sendable {
                /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/unavailable
                case unavailable = 1
                /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/toomanypendingtaskrequests
                case tooManyPendingTaskRequests = 2
                /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/notpermitted
                case notPermitted = 3
            }

            /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code-swift.property
            public let code: Code

            /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/init(_:userinfo:)
            public init(_ code: Code, userInfo: [String: Any] = [:]) { self.code = code }

            /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/unavailable
            public static var unavailable: Code { .unavailable }
            /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/toomanypendingtaskrequests
            public static var tooManyPendingTaskRequests: Code { .tooManyPendingTaskRequests }
            /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/notpermitted
            public static var notPermitted: Code { .notPermitted }
        }
    }
#endif
