import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import CoreLocation
#else
    import ShadowCoreLocation
#endif

/// Core Location for the shell: three managers, so one kind of request never changes another's
/// settings (a one-shot fix's accuracy would otherwise change the running updates'):
/// - `updates`: continuous ("standard") updates;
/// - `oneShot`: `requestLocation()` for a slot's fix, and the fix after leaving a region;
/// - `monitor`: significant changes, visits and the resume region (all relaunch an Always app).
@MainActor
final class LocationAdapter {
    /// iOS monitors at most 20 regions per app, shared by every manager (policy §4).
    static let regionLimit = 20
    nonisolated static let resumeRegionIdentifier = "com.backgroundtracker.resume"

    let updates: CLLocationManager
    let oneShot: CLLocationManager
    let monitor: CLLocationManager
    private let delegate: LocationDelegate
    private weak var shell: BackgroundTracker?
    /// Where the next one-shot fixes come from, oldest first (a slot's fix, or a region exit).
    private var oneShotSources: [FixSource] = []

    init(shell: BackgroundTracker) {
        self.shell = shell
        self.updates = CLLocationManager()
        self.oneShot = CLLocationManager()
        self.monitor = CLLocationManager()
        self.delegate = LocationDelegate()
        delegate.adapter = self
        for manager in [updates, oneShot, monitor] { manager.delegate = delegate }
    }

    var authorization: LocationAuthorization {
        let status = updates.authorizationStatus
        if status == .authorizedAlways { return .always }
        if status == .authorizedWhenInUse { return .whenInUse }
        if status == .notDetermined { return .notDetermined }
        return .denied
    }

    var isPrecise: Bool { updates.accuracyAuthorization == .fullAccuracy }

    func requestAuthorizationIfNeeded(always: Bool) {
        let status = updates.authorizationStatus
        if status == .notDetermined {
            // iOS asks for When-In-Use first; Always can be asked for once after that.
            updates.requestWhenInUseAuthorization()
        } else if always, status == .authorizedWhenInUse {
            updates.requestAlwaysAuthorization()
        }
    }

    /// Every property a request names is set explicitly, defaults included: iOS's default for
    /// `pausesLocationUpdatesAutomatically` is `true`, and a pause ends a When-In-Use app's
    /// access until it is launched again.
    func startUpdates(_ request: LocationUpdatesRequest) {
        updates.desiredAccuracy = request.accuracy.coreLocation
        updates.distanceFilter = request.distanceFilter ?? kCLDistanceFilterNone
        updates.pausesLocationUpdatesAutomatically = request.pausesAutomatically
        updates.allowsBackgroundLocationUpdates = request.allowsBackgroundUpdates
        // Always apps get the blue indicator only if they ask; be open about tracking.
        updates.showsBackgroundLocationIndicator = request.allowsBackgroundUpdates
        updates.startUpdatingLocation()
    }

    func stopUpdates() {
        updates.stopUpdatingLocation()
    }

    func requestFix(_ accuracy: LocationAccuracy, source: FixSource) {
        oneShot.desiredAccuracy = accuracy.coreLocation
        // A one-shot fix taken in the background needs background updates allowed as well.
        oneShot.allowsBackgroundLocationUpdates = true
        oneShot.pausesLocationUpdatesAutomatically = false
        oneShotSources.append(source)
        oneShot.requestLocation()
    }

    /// Monitors the resume region, replacing the previous one (same identifier), within the
    /// 20-region limit; with approximate location iOS monitors no regions at all.
    func monitorResumeRegion(latitude: Double, longitude: Double, radius: Double) {
        guard isPrecise else {
            shell?.log(.info, "resume region not monitored: Precise Location is off")
            return
        }
        let others = monitor.monitoredRegions.filter { $0.identifier != Self.resumeRegionIdentifier }
        guard others.count < Self.regionLimit else {
            shell?.log(
                .warning,
                "resume region not monitored: the app already monitors \(others.count) regions (iOS allows \(Self.regionLimit))"
            )
            return
        }
        let region = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), radius: radius,
            identifier: Self.resumeRegionIdentifier)
        region.notifyOnEntry = false
        region.notifyOnExit = true
        monitor.startMonitoring(for: region)
    }

    func stopResumeRegion() {
        for region in monitor.monitoredRegions where region.identifier == Self.resumeRegionIdentifier {
            monitor.stopMonitoring(for: region)
        }
    }

    // MARK: Delegate callbacks, on the main thread

    func received(_ fixes: [LocationFix], from manager: ObjectIdentifier) {
        let source: FixSource
        if manager == ObjectIdentifier(updates) {
            source = .standardUpdates
        } else if manager == ObjectIdentifier(monitor) {
            source = .significantChange
        } else {
            source = oneShotSources.isEmpty ? .oneShot : oneShotSources.removeFirst()
        }
        let precise = isPrecise
        for var fix in fixes {
            fix.isApproximate = !precise
            shell?.deliver(.locationFix(fix, source: source))
        }
    }

    func failed(_ manager: ObjectIdentifier, reason: String) {
        if manager == ObjectIdentifier(oneShot), !oneShotSources.isEmpty { oneShotSources.removeFirst() }
        shell?.log(.info, "location unavailable: \(reason)")
    }

    func visited(_ fix: LocationFix) {
        shell?.deliver(.locationFix(fix, source: .visit))
    }

    func exitedResumeRegion() {
        shell?.log(.info, "left the resume region")
        requestFix(.best, source: .regionExit)
    }

    func authorizationChanged() {
        guard let shell else { return }
        shell.systemSettingsChanged()
    }
}

/// The one delegate of the three managers. Core Location calls it on the thread that created
/// the managers, the main thread.
final class LocationDelegate: NSObject, CLLocationManagerDelegate {
    weak var adapter: LocationAdapter?

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        let fixes = locations.map(LocationFix.init(coreLocation:))
        let (adapter, id) = (adapter, ObjectIdentifier(manager))
        MainActor.assumeIsolated { adapter?.received(fixes, from: id) }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        let (adapter, id, reason) = (adapter, ObjectIdentifier(manager), "\(error)")
        MainActor.assumeIsolated { adapter?.failed(id, reason: reason) }
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        let (adapter, id) = (adapter, ObjectIdentifier(manager))
        MainActor.assumeIsolated {
            // Every manager reports the change; act on one.
            guard let adapter, id == ObjectIdentifier(adapter.updates) else { return }
            adapter.authorizationChanged()
        }
    }

    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        let (adapter, fix) = (adapter, LocationFix(visit: visit))
        MainActor.assumeIsolated { adapter?.visited(fix) }
    }

    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        let (adapter, id) = (adapter, ObjectIdentifier(manager))
        let ours = region.identifier == LocationAdapter.resumeRegionIdentifier
        MainActor.assumeIsolated {
            // Regions are shared: every manager's delegate hears of the exit; act once.
            guard ours, let adapter, id == ObjectIdentifier(adapter.monitor) else { return }
            adapter.exitedResumeRegion()
        }
    }
}

extension LocationAccuracy {
    /// The matching `desiredAccuracy` constant.
    var coreLocation: CLLocationAccuracy {
        switch self {
        case .best: return kCLLocationAccuracyBest
        case .tenMeters: return kCLLocationAccuracyNearestTenMeters
        case .hundredMeters: return kCLLocationAccuracyHundredMeters
        case .kilometer: return kCLLocationAccuracyKilometer
        case .threeKilometers: return kCLLocationAccuracyThreeKilometers
        }
    }
}

extension LocationFix {
    /// Core Location's "unknown" values (negative speed, course, vertical accuracy) become `nil`.
    init(coreLocation location: CLLocation) {
        self.init(
            timestamp: Instant(seconds: location.timestamp.timeIntervalSince1970),
            latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
            horizontalAccuracy: location.horizontalAccuracy,
            altitude: location.verticalAccuracy < 0 ? nil : location.altitude,
            speed: location.speed < 0 ? nil : location.speed, course: location.course < 0 ? nil : location.course)
    }

    /// A visit is dated by its departure, or its arrival while the user is still there.
    init(visit: CLVisit) {
        let date = visit.departureDate == .distantFuture ? visit.arrivalDate : visit.departureDate
        self.init(
            timestamp: Instant(seconds: date.timeIntervalSince1970), latitude: visit.coordinate.latitude,
            longitude: visit.coordinate.longitude, horizontalAccuracy: visit.horizontalAccuracy)
    }
}
