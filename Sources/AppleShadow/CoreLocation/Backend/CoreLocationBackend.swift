#if !canImport(UIKit)
    /// Shadow only, not Apple API: the system behind `CLLocationManager` and the location sessions.
    public protocol CoreLocationBackend: AnyObject {
        /// A location manager was created; the backend keeps it to call its delegate.
        func locationManagerCreated(_ manager: CLLocationManager)
        /// The app set one of the manager's properties (even to the value it already had).
        func locationManager(_ manager: CLLocationManager, didSet property: ShadowLocationProperty)
        func locationManager(_ manager: CLLocationManager, perform call: ShadowLocationCall)
        func authorizationStatus(of manager: CLLocationManager) -> CLAuthorizationStatus
        func accuracyAuthorization(of manager: CLLocationManager) -> CLAccuracyAuthorization
        /// The system-wide Location Services switch (`CLLocationManager.locationServicesEnabled()`).
        var locationServicesEnabled: Bool { get }
        var monitoredRegions: Set<CLRegion> { get }
        func backgroundActivitySessionStarted(_ id: ObjectIdentifier)
        func backgroundActivitySessionInvalidated(_ id: ObjectIdentifier)
        func serviceSessionStarted(_ id: ObjectIdentifier, authorization: CLServiceSession.AuthorizationRequirement)
        func serviceSessionInvalidated(_ id: ObjectIdentifier)
    }

    /// Shadow only: a property of `CLLocationManager` the app set, with the value it set.
    public enum ShadowLocationProperty: Hashable, Sendable {
        case desiredAccuracy(Double)
        case distanceFilter(Double)
        case allowsBackgroundLocationUpdates(Bool)
        case pausesLocationUpdatesAutomatically(Bool)
        case showsBackgroundLocationIndicator(Bool)
    }

    /// Shadow only: a method of `CLLocationManager` the app called.
    public enum ShadowLocationCall: Hashable, Sendable {
        case requestWhenInUseAuthorization, requestAlwaysAuthorization
        case startUpdatingLocation, stopUpdatingLocation, requestLocation
        case startMonitoringSignificantLocationChanges, stopMonitoringSignificantLocationChanges
        case startMonitoringVisits, stopMonitoringVisits
        case startMonitoring(regionIdentifier: String, latitude: Double, longitude: Double, radius: Double)
        case stopMonitoring(regionIdentifier: String)
    }

    /// Shadow only: where Core Location finds its backend.
    public enum CoreLocationShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it).
        nonisolated(unsafe) public static var backend: any CoreLocationBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: CoreLocationBackend {
            func locationManagerCreated(_ manager: CLLocationManager) { uninstalled() }
            func locationManager(_ manager: CLLocationManager, didSet property: ShadowLocationProperty) {
                uninstalled()
            }
            func locationManager(_ manager: CLLocationManager, perform call: ShadowLocationCall) { uninstalled() }
            func authorizationStatus(of manager: CLLocationManager) -> CLAuthorizationStatus { uninstalled() }
            func accuracyAuthorization(of manager: CLLocationManager) -> CLAccuracyAuthorization { uninstalled() }
            var locationServicesEnabled: Bool { uninstalled() }
            var monitoredRegions: Set<CLRegion> { uninstalled() }
            func backgroundActivitySessionStarted(_ id: ObjectIdentifier) { uninstalled() }
            func backgroundActivitySessionInvalidated(_ id: ObjectIdentifier) { uninstalled() }
            func serviceSessionStarted(
                _ id: ObjectIdentifier, authorization: CLServiceSession.AuthorizationRequirement
            ) { uninstalled() }
            func serviceSessionInvalidated(_ id: ObjectIdentifier) { uninstalled() }
        }
    }

    func uninstalled(_ what: String = #function) -> Never {
        preconditionFailure(
            "AppleShadow: Core Location's \(what) used before a backend was installed; set ShadowSystem.backend first")
    }
#endif
