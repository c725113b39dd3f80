#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager
    open class CLLocationManager: NSObject {
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/init()
        public override init() {
            super.init()
            CoreLocationShadow.backend.locationManagerCreated(self)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/delegate
        weak open var delegate: (any CLLocationManagerDelegate)?

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/desiredaccuracy
        open var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest {
            didSet { CoreLocationShadow.backend.locationManager(self, didSet: .desiredAccuracy(desiredAccuracy)) }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/distancefilter
        open var distanceFilter: CLLocationDistance = kCLDistanceFilterNone {
            didSet { CoreLocationShadow.backend.locationManager(self, didSet: .distanceFilter(distanceFilter)) }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/allowsbackgroundlocationupdates
        open var allowsBackgroundLocationUpdates = false {
            didSet {
                CoreLocationShadow.backend.locationManager(
                    self, didSet: .allowsBackgroundLocationUpdates(allowsBackgroundLocationUpdates))
            }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/pauseslocationupdatesautomatically
        open var pausesLocationUpdatesAutomatically = true {
            didSet {
                CoreLocationShadow.backend.locationManager(
                    self, didSet: .pausesLocationUpdatesAutomatically(pausesLocationUpdatesAutomatically))
            }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/showsbackgroundlocationindicator
        open var showsBackgroundLocationIndicator = false {
            didSet {
                CoreLocationShadow.backend.locationManager(
                    self, didSet: .showsBackgroundLocationIndicator(showsBackgroundLocationIndicator))
            }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/locationservicesenabled()
        open class func locationServicesEnabled() -> Bool { CoreLocationShadow.backend.locationServicesEnabled }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/authorizationstatus-swift.property
        open var authorizationStatus: CLAuthorizationStatus { CoreLocationShadow.backend.authorizationStatus(of: self) }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/accuracyauthorization
        open var accuracyAuthorization: CLAccuracyAuthorization {
            CoreLocationShadow.backend.accuracyAuthorization(of: self)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/monitoredregions
        open var monitoredRegions: Set<CLRegion> { CoreLocationShadow.backend.monitoredRegions }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/requestwheninuseauthorization()
        open func requestWhenInUseAuthorization() {
            CoreLocationShadow.backend.locationManager(self, perform: .requestWhenInUseAuthorization)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/requestalwaysauthorization()
        open func requestAlwaysAuthorization() {
            CoreLocationShadow.backend.locationManager(self, perform: .requestAlwaysAuthorization)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/startupdatinglocation()
        open func startUpdatingLocation() {
            CoreLocationShadow.backend.locationManager(self, perform: .startUpdatingLocation)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/stopupdatinglocation()
        open func stopUpdatingLocation() {
            CoreLocationShadow.backend.locationManager(self, perform: .stopUpdatingLocation)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/requestlocation()
        open func requestLocation() { CoreLocationShadow.backend.locationManager(self, perform: .requestLocation) }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/startmonitoringsignificantlocationchanges()
        open func startMonitoringSignificantLocationChanges() {
            CoreLocationShadow.backend.locationManager(self, perform: .startMonitoringSignificantLocationChanges)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/stopmonitoringsignificantlocationchanges()
        open func stopMonitoringSignificantLocationChanges() {
            CoreLocationShadow.backend.locationManager(self, perform: .stopMonitoringSignificantLocationChanges)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/startmonitoringvisits()
        open func startMonitoringVisits() {
            CoreLocationShadow.backend.locationManager(self, perform: .startMonitoringVisits)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/stopmonitoringvisits()
        open func stopMonitoringVisits() {
            CoreLocationShadow.backend.locationManager(self, perform: .stopMonitoringVisits)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/startmonitoring(for:)
        open func startMonitoring(for region: CLRegion) {
            CoreLocationShadow.backend.locationManager(
                self,
                perform: .startMonitoring(
                    regionIdentifier: region.identifier,
                    latitude: (region as? CLCircularRegion)?.center.latitude ?? 0,
                    longitude: (region as? CLCircularRegion)?.center.longitude ?? 0,
                    radius: (region as? CLCircularRegion)?.radius ?? 0))
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanager/stopmonitoring(for:)
        open func stopMonitoring(for region: CLRegion) {
            CoreLocationShadow.backend.locationManager(
                self, perform: .stopMonitoring(regionIdentifier: region.identifier))
        }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate
    public protocol CLLocationManagerDelegate: NSObjectProtocol {
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didupdatelocations:)
        func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didfailwitherror:)
        func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanagerdidchangeauthorization(_:)
        func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didvisit:)
        func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
        /// Apple: https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didexitregion:)
        func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    }
#endif
