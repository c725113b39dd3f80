#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/corelocation/cllocationdegrees
    public typealias CLLocationDegrees = Double
    /// Apple: https://developer.apple.com/documentation/corelocation/cllocationaccuracy
    public typealias CLLocationAccuracy = Double
    /// Apple: https://developer.apple.com/documentation/corelocation/cllocationdistance
    public typealias CLLocationDistance = Double
    /// Apple: https://developer.apple.com/documentation/corelocation/cllocationspeed
    public typealias CLLocationSpeed = Double
    /// Apple: https://developer.apple.com/documentation/corelocation/cllocationdirection
    public typealias CLLocationDirection = Double

    /// Apple: https://developer.apple.com/documentation/corelocation/kcllocationaccuracybest
    public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
    /// Apple: https://developer.apple.com/documentation/corelocation/kcllocationaccuracynearesttenmeters
    public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
    /// Apple: https://developer.apple.com/documentation/corelocation/kcllocationaccuracyhundredmeters
    public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
    /// Apple: https://developer.apple.com/documentation/corelocation/kcllocationaccuracykilometer
    public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
    /// Apple: https://developer.apple.com/documentation/corelocation/kcllocationaccuracythreekilometers
    public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
    /// Apple: https://developer.apple.com/documentation/corelocation/kcldistancefilternone
    public let kCLDistanceFilterNone: CLLocationDistance = -1

    /// Apple: https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d
    public struct CLLocationCoordinate2D: Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/latitude
        public var latitude: CLLocationDegrees
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/longitude
        public var longitude: CLLocationDegrees
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/init(latitude:longitude:)
        public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/cllocation
    open class CLLocation: NSObject {
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocation/coordinate
        open var coordinate: CLLocationCoordinate2D { storedCoordinate }
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocation/altitude
        open var altitude: CLLocationDistance { storedAltitude }
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocation/horizontalaccuracy
        open var horizontalAccuracy: CLLocationAccuracy { storedHorizontalAccuracy }
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocation/verticalaccuracy
        open var verticalAccuracy: CLLocationAccuracy { storedVerticalAccuracy }
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocation/course
        open var course: CLLocationDirection { storedCourse }
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocation/speed
        open var speed: CLLocationSpeed { storedSpeed }
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocation/timestamp
        open var timestamp: Date { storedTimestamp }

        private let storedCoordinate: CLLocationCoordinate2D
        private let storedAltitude: CLLocationDistance
        private let storedHorizontalAccuracy: CLLocationAccuracy
        private let storedVerticalAccuracy: CLLocationAccuracy
        private let storedCourse: CLLocationDirection
        private let storedSpeed: CLLocationSpeed
        private let storedTimestamp: Date

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocation/init(coordinate:altitude:horizontalaccuracy:verticalaccuracy:course:speed:timestamp:)
        public init(
            coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
            horizontalAccuracy hAccuracy: CLLocationAccuracy,
            verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed,
            timestamp: Date
        ) {
            self.storedCoordinate = coordinate
            self.storedAltitude = altitude
            self.storedHorizontalAccuracy = hAccuracy
            self.storedVerticalAccuracy = vAccuracy
            self.storedCourse = course
            self.storedSpeed = speed
            self.storedTimestamp = timestamp
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/clauthorizationstatus
    public enum CLAuthorizationStatus: Int32, Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/clauthorizationstatus/notdetermined
        case notDetermined = 0
        /// Apple: https://developer.apple.com/documentation/corelocation/clauthorizationstatus/restricted
        case restricted = 1
        /// Apple: https://developer.apple.com/documentation/corelocation/clauthorizationstatus/denied
        case denied = 2
        /// Apple: https://developer.apple.com/documentation/corelocation/clauthorizationstatus/authorizedalways
        case authorizedAlways = 3
        /// Apple: https://developer.apple.com/documentation/corelocation/clauthorizationstatus/authorizedwheninuse
        case authorizedWhenInUse = 4
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/claccuracyauthorization
    public enum CLAccuracyAuthorization: Int, Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/claccuracyauthorization/fullaccuracy
        case fullAccuracy = 0
        /// Apple: https://developer.apple.com/documentation/corelocation/claccuracyauthorization/reducedaccuracy
        case reducedAccuracy = 1
    }
#endif
