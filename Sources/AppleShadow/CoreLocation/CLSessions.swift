#if !canImport(UIKit)
    import Foundation

    /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3
    public final class CLBackgroundActivitySession: Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/init()
        public init() { CoreLocationShadow.backend.backgroundActivitySessionStarted(ObjectIdentifier(self)) }

        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/invalidate()
        public final func invalidate() {
            CoreLocationShadow.backend.backgroundActivitySessionInvalidated(ObjectIdentifier(self))
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n
    public final class CLServiceSession: Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement
        public enum AuthorizationRequirement: Hashable, Sendable {
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/always
            case always
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/none
            case none
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/wheninuse
            case whenInUse
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/init(authorization:)
        public init(authorization: CLServiceSession.AuthorizationRequirement) {
            CoreLocationShadow.backend.serviceSessionStarted(ObjectIdentifier(self), authorization: authorization)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/invalidate()
        public final func invalidate() { CoreLocationShadow.backend.serviceSessionInvalidated(ObjectIdentifier(self)) }
    }
#endif
