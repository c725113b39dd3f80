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
    /// iOS monitors at most 20 regions per app, shared by every manager (docs/ios-policy.md §Location).
    static let regionLimit = 20
    nonisolated static let resumeRegionIdentifier = "com.backgroundtracker.resume"

    let updates: CLLocationManager
    let oneShot: CLLocationManager
    let monitor: CLLocationManager
    private let delegate: LocationDelegate
    private weak var shell: Tracker?
    /// Where the next one-shot fixes come from, oldest first (a slot's fix, or a region exit).
    private var oneShotSources: [FixSource] = []
    /// A `requestLocation()` has not been answered yet (iOS answers each with one fix or one
    /// error; requests made meanwhile share that answer).
    private var oneShotInFlight = false
    /// Background updates were wanted without the `location` mode; said once per process.
    private var reportedMissingMode = false

    init(shell: Tracker) {
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

    /// The first prompt (docs/ios-policy.md §Contract): Allow Once, Allow While Using, Don't Allow. Always is a
    /// later, separate step (`requestAlways()`), at a moment the app chooses.
    func requestWhenInUseIfUndetermined() {
        if updates.authorizationStatus == .notDetermined { updates.requestWhenInUseAuthorization() }
    }

    /// The Always upgrade prompt (iOS shows it once after When-In-Use), or from "not
    /// determined" the When-In-Use prompt with Always granted provisionally.
    func requestAlways() {
        updates.requestAlwaysAuthorization()
    }

    /// Whether a fix the shell asked for has not arrived yet: a refresh or processing task stays
    /// open until it has (or its time is up). Standard updates are not waited for: they may stay
    /// silent while the phone does not move, and with the `location` mode they keep the app
    /// running by themselves.
    var isAwaitingFix: Bool { oneShotInFlight }

    /// Whether background updates may be switched on: only with the `location` mode in the
    /// app's `Info.plist` (without it, setting `allowsBackgroundLocationUpdates` raises an
    /// exception on iOS: docs/ios-policy.md §Modes). Wanting them without the mode is reported once.
    private func backgroundUpdatesAllowed(wanted: Bool) -> Bool {
        guard wanted else { return false }
        if shell?.appInfo.allowsBackgroundLocation == true { return true }
        if !reportedMissingMode {
            reportedMissingMode = true
            shell?.log(
                .error,
                "background location updates wanted, but the app's Info.plist has no \"location\" in "
                    + "UIBackgroundModes: add it (bgtrack lint-plist checks the plist); updates stop when the app is "
                    + "suspended")
        }
        return false
    }

    /// Every property a request names is set explicitly, defaults included: iOS's default for
    /// `pausesLocationUpdatesAutomatically` is `true`, and a pause ends a When-In-Use app's
    /// access until it is launched again.
    func startUpdates(_ request: LocationUpdatesRequest) {
        updates.desiredAccuracy = request.accuracy.coreLocation
        updates.distanceFilter = request.distanceFilter ?? kCLDistanceFilterNone
        updates.pausesLocationUpdatesAutomatically = request.pausesAutomatically
        let background = backgroundUpdatesAllowed(wanted: request.allowsBackgroundUpdates)
        updates.allowsBackgroundLocationUpdates = background
        // Always apps get the blue indicator only if they ask; be open about tracking.
        updates.showsBackgroundLocationIndicator = background
        updates.startUpdatingLocation()
    }

    func stopUpdates() {
        updates.stopUpdatingLocation()
    }

    func requestFix(_ accuracy: LocationAccuracy, source: FixSource) {
        oneShot.desiredAccuracy = accuracy.coreLocation
        // A one-shot fix taken in the background needs background updates allowed as well, which
        // only an app with the `location` mode may ask for.
        oneShot.allowsBackgroundLocationUpdates = backgroundUpdatesAllowed(wanted: true)
        oneShot.pausesLocationUpdatesAutomatically = false
        oneShotSources.append(source)
        oneShotInFlight = true
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
        if manager == ObjectIdentifier(oneShot) { oneShotInFlight = false }
        let precise = isPrecise
        for var fix in fixes {
            fix.isApproximate = !precise
            shell?.deliver(.locationFix(fix, source: source))
        }
        shell?.completeWakeTasksIfDone()
    }

    func failed(_ manager: ObjectIdentifier, reason: String, locationUnknown: Bool = false) {
        if manager == ObjectIdentifier(oneShot) {
            oneShotInFlight = false
            if !oneShotSources.isEmpty { oneShotSources.removeFirst() }
        }
        shell?.log(.info, "location unavailable: \(reason)")
        if locationUnknown { shell?.noteLocationUnknownForGaps() }
        shell?.completeWakeTasksIfDone()
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
        refreshServicesSwitch()
        shell.systemSettingsChanged()
        shell.publish()
    }

    /// iOS reports a device whose Location Services are off as `.denied`; only then does the
    /// shell ask which of the two it is, off the main thread (`locationServicesEnabled()` may
    /// block, and Xcode flags a call on the main thread), and tells the strategy when it knows.
    func refreshServicesSwitch() {
        guard let shell else { return }
        guard authorization == .denied else {
            shell.locationServicesEnabled = true
            return
        }
        shell.clock.offMain({ CLLocationManager.locationServicesEnabled() }) { [weak shell] enabled in
            guard let shell, shell.locationServicesEnabled != enabled else { return }
            shell.locationServicesEnabled = enabled
            shell.systemSettingsChanged()
        }
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
        let unknown = (error as? CLError)?.code == .locationUnknown
        MainActor.assumeIsolated { adapter?.failed(id, reason: reason, locationUnknown: unknown) }
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
            verticalAccuracy: location.verticalAccuracy < 0 ? nil : location.verticalAccuracy,
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
