#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/uikit/uidevice
    @MainActor
    open class UIDevice: NSObject {
        private static let instance = UIDevice()

        override internal init() {}

        /// Apple: https://developer.apple.com/documentation/uikit/uidevice/current
        open class var current: UIDevice { instance }

        /// Apple: https://developer.apple.com/documentation/uikit/uidevice/isbatterymonitoringenabled
        open var isBatteryMonitoringEnabled: Bool {
            get { UIKitShadow.backend.batteryMonitoringEnabled }
            set { UIKitShadow.backend.batteryMonitoringEnabled = newValue }
        }

        /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batterylevel
        open var batteryLevel: Float { isBatteryMonitoringEnabled ? UIKitShadow.backend.batteryLevel : -1 }

        /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.property
        open var batteryState: UIDevice.BatteryState {
            isBatteryMonitoringEnabled ? UIKitShadow.backend.batteryState : .unknown
        }

        /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum
        public enum BatteryState: Int, Sendable {
            /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum/unknown
            case unknown = 0
            /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum/unplugged
            case unplugged = 1
            /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum/charging
            case charging = 2
            /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum/full
            case full = 3
        }

        /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batteryleveldidchangenotification
        nonisolated public static let batteryLevelDidChangeNotification = NSNotification.Name(
            "UIDeviceBatteryLevelDidChangeNotification")

        /// Apple: https://developer.apple.com/documentation/uikit/uidevice/batterystatedidchangenotification
        nonisolated public static let batteryStateDidChangeNotification = NSNotification.Name(
            "UIDeviceBatteryStateDidChangeNotification")
    }
#endif
