#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/corelocation/clregion
    open class CLRegion: NSObject {
        /// Apple: https://developer.apple.com/documentation/corelocation/clregion/identifier
        open var identifier: String { storedIdentifier }
        /// Apple: https://developer.apple.com/documentation/corelocation/clregion/notifyonentry
        open var notifyOnEntry = true
        /// Apple: https://developer.apple.com/documentation/corelocation/clregion/notifyonexit
        open var notifyOnExit = true

        private let storedIdentifier: String

        internal init(identifier: String) {
            self.storedIdentifier = identifier
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/clcircularregion
    open class CLCircularRegion: CLRegion {
        /// Apple: https://developer.apple.com/documentation/corelocation/clcircularregion/center
        open var center: CLLocationCoordinate2D { storedCenter }
        /// Apple: https://developer.apple.com/documentation/corelocation/clcircularregion/radius
        open var radius: CLLocationDistance { storedRadius }

        private let storedCenter: CLLocationCoordinate2D
        private let storedRadius: CLLocationDistance

        /// Apple: https://developer.apple.com/documentation/corelocation/clcircularregion/init(center:radius:identifier:)
        public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
            self.storedCenter = center
            self.storedRadius = radius
            super.init(identifier: identifier)
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/clvisit
    open class CLVisit: NSObject {
        /// Apple: https://developer.apple.com/documentation/corelocation/clvisit/coordinate
        open var coordinate: CLLocationCoordinate2D { storedCoordinate }
        /// Apple: https://developer.apple.com/documentation/corelocation/clvisit/horizontalaccuracy
        open var horizontalAccuracy: CLLocationAccuracy { storedHorizontalAccuracy }
        /// Apple: https://developer.apple.com/documentation/corelocation/clvisit/arrivaldate
        open var arrivalDate: Date { storedArrivalDate }
        /// Apple: https://developer.apple.com/documentation/corelocation/clvisit/departuredate
        open var departureDate: Date { storedDepartureDate }

        // Set by the backend's `init(shadowCoordinate:...)`.
        internal var storedCoordinate = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        internal var storedHorizontalAccuracy: CLLocationAccuracy = 0
        internal var storedArrivalDate = Date.distantPast
        internal var storedDepartureDate = Date.distantFuture

        internal override init() {}
    }
#endif
