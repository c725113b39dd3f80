#if !canImport(UIKit)
    import Foundation

    /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3
    @available(iOS 17.0, macCatalyst 17.0, visionOS 1.0, watchOS 10.0, *)
    public final class CLBackgroundActivitySession: Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/init()
        public init() { CoreLocationShadow.backend.backgroundActivitySessionStarted(ObjectIdentifier(self)) }

        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/invalidate()
        public final func invalidate() {
            CoreLocationShadow.backend.backgroundActivitySessionInvalidated(ObjectIdentifier(self))
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n
    @available(iOS 18.0, macCatalyst 18.0, tvOS 18.0, visionOS 1.0, watchOS 11.0, *)
    public final class CLServiceSession: Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement
        public enum AuthorizationRequirement: Hashable {
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
