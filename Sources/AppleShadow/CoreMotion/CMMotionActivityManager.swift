#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager
    /// ("To use this API, you must include the NSMotionUsageDescription key in your app's
    /// Info.plist … If you don't include a usage description string, your app crashes").
    @available(iOS 7.0, *)
    open class CMMotionActivityManager: NSObject {
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/init()
        public override init() { super.init() }

        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/isactivityavailable()
        open class func isActivityAvailable() -> Bool { CoreMotionShadow.backend.motionActivityAvailable }

        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/authorizationstatus()
        @available(iOS 11.0, *)
        open class func authorizationStatus() -> CMAuthorizationStatus {
            CoreMotionShadow.backend.motionAuthorizationStatus
        }

        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/startactivityupdates(to:withhandler:)
        open func startActivityUpdates(to queue: OperationQueue, withHandler handler: @escaping CMMotionActivityHandler)
        {
            CoreMotionShadow.backend.motionActivityManager(self, startActivityUpdatesTo: queue, handler: handler)
        }

        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/stopactivityupdates()
        open func stopActivityUpdates() { CoreMotionShadow.backend.motionActivityManagerStoppedUpdates(self) }
    }
#endif
