#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/coremotion/cmlogitem
    /// (the shell uses none of its members; it is `CMMotionActivity`'s superclass).
    @available(iOS 4.0, *)
    open class CMLogItem: NSObject {}

    /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity
    @available(iOS 7.0, *)
    open class CMMotionActivity: CMLogItem {
        // Set by the shadow's constructor before the object is handed out, never after:
        // read-only for the app, as in Core Motion.
        internal var storedFlags = (
            stationary: false, walking: false, running: false, automotive: false, cycling: false, unknown: true
        )
        internal var storedConfidence = CMMotionActivityConfidence.low
        internal var storedStartDate = Date(timeIntervalSince1970: 0)

        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity/stationary
        open var stationary: Bool { storedFlags.stationary }
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity/walking
        open var walking: Bool { storedFlags.walking }
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity/running
        open var running: Bool { storedFlags.running }
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity/automotive
        open var automotive: Bool { storedFlags.automotive }
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity/cycling
        @available(iOS 8.0, *)
        open var cycling: Bool { storedFlags.cycling }
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity/unknown
        open var unknown: Bool { storedFlags.unknown }
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity/confidence
        open var confidence: CMMotionActivityConfidence { storedConfidence }
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivity/startdate
        open var startDate: Date { storedStartDate }
    }

    /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivityconfidence
    public enum CMMotionActivityConfidence: Int, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivityconfidence/low
        case low = 0
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivityconfidence/medium
        case medium = 1
        /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivityconfidence/high
        case high = 2
    }

    /// Apple: https://developer.apple.com/documentation/coremotion/cmauthorizationstatus
    @available(iOS 11.0, *)
    public enum CMAuthorizationStatus: Int, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/coremotion/cmauthorizationstatus/notdetermined
        case notDetermined = 0
        /// Apple: https://developer.apple.com/documentation/coremotion/cmauthorizationstatus/restricted
        case restricted = 1
        /// Apple: https://developer.apple.com/documentation/coremotion/cmauthorizationstatus/denied
        case denied = 2
        /// Apple: https://developer.apple.com/documentation/coremotion/cmauthorizationstatus/authorized
        case authorized = 3
    }

    /// Apple: https://developer.apple.com/documentation/coremotion/cmmotionactivityhandler
    public typealias CMMotionActivityHandler = (CMMotionActivity?) -> Void
#endif
