#if !canImport(UIKit) && !canImport(Darwin)
    public import Foundation

    // swift-corelibs-foundation has no Low Power Mode; Apple's Foundation (macOS 12+) has the real
    // ones, so these exist only where Darwin does not.
    extension ProcessInfo {
        /// Apple: https://developer.apple.com/documentation/foundation/processinfo/islowpowermodeenabled
        public var isLowPowerModeEnabled: Bool { FoundationShadow.backend.lowPowerModeEnabled }
    }

    extension NSNotification.Name {
        /// Apple: https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsprocessinfopowerstatedidchange
        public static let NSProcessInfoPowerStateDidChange = NSNotification.Name(
            "NSProcessInfoPowerStateDidChangeNotification")
    }
#endif
