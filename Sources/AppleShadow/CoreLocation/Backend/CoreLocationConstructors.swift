#if !canImport(UIKit)
    public import Foundation

    // Shadow only: Core Location creates these objects itself and gives apps no initializer; a
    // backend needs one to hand them to the app as iOS would.

    extension CLVisit {
        /// Shadow only: a visit as the system would report it.
        public convenience init(
            shadowCoordinate coordinate: CLLocationCoordinate2D, horizontalAccuracy: Double, arrival: Date,
            departure: Date
        ) {
            self.init()
            self.storedCoordinate = coordinate
            self.storedHorizontalAccuracy = horizontalAccuracy
            self.storedArrivalDate = arrival
            self.storedDepartureDate = departure
        }
    }

    extension CLRegion {
        /// Shadow only: the region object the system reports when the user leaves a monitored one.
        public static func shadowRegion(identifier: String) -> CLRegion { CLRegion(identifier: identifier) }
    }
#endif
