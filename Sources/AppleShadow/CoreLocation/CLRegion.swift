#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/corelocation/clregion
    open class CLRegion: NSObject {
        /// Apple: https://developer.apple.com/documentation/corelocation/clregion/identifier
        public let identifier: String
        /// Apple: https://developer.apple.com/documentation/corelocation/clregion/notifyonentry
        open var notifyOnEntry = true
        /// Apple: https://developer.apple.com/documentation/corelocation/clregion/notifyonexit
        open var notifyOnExit = true

        internal init(identifier: String) {
            self.identifier = identifier
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/clcircularregion
    open class CLCircularRegion: CLRegion {
        /// Apple: https://developer.apple.com/documentation/corelocation/clcircularregion/center
        public let center: CLLocationCoordinate2D
        /// Apple: https://developer.apple.com/documentation/corelocation/clcircularregion/radius
        public let radius: CLLocationDistance

        /// Apple: https://developer.apple.com/documentation/corelocation/clcircularregion/init(center:radius:identifier:)
        public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
            self.center = center
            self.radius = radius
            super.init(identifier: identifier)
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/clvisit
    open class CLVisit: NSObject, @unchecked Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/clvisit/coordinate
        public internal(set) var coordinate = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        /// Apple: https://developer.apple.com/documentation/corelocation/clvisit/horizontalaccuracy
        public internal(set) var horizontalAccuracy: CLLocationAccuracy = 0
        /// Apple: https://developer.apple.com/documentation/corelocation/clvisit/arrivaldate
        public internal(set) var arrivalDate = Date.distantPast
        /// Apple: https://developer.apple.com/documentation/corelocation/clvisit/departuredate
        public internal(set) var departureDate = Date.distantFuture

        internal override init() {}
    }
#endif
