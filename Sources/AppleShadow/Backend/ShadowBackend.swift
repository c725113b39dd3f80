#if !canImport(UIKit)
    public import Foundation

    /// Shadow only, not Apple API: the system behind the shadow's objects.
    ///
    /// Every shadow object forwards what the app asks of iOS to the installed backend and holds no
    /// behaviour of its own. Tests install a fake with a virtual clock; the simulator installs
    /// its model of iOS (`IOSShellHost`). The backend calls back into the app through the same objects iOS would
    /// use: a location manager's delegate, a task's expiration handler, a launch handler.
    public protocol ShadowBackend: AnyObject {
        // MARK: UIKit

        /// `beginBackgroundTask(withName:expirationHandler:)`; returns the raw identifier, or
        /// `UIBackgroundTaskIdentifier.invalid.rawValue` when the system refuses.
        func beginBackgroundTask(name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?) -> Int
        func endBackgroundTask(_ rawValue: Int)
        var backgroundTimeRemaining: TimeInterval { get }
        var applicationState: UIApplication.State { get }
        /// `UIApplication.backgroundRefreshStatus`: the Background App Refresh switch.
        var backgroundRefreshStatus: UIBackgroundRefreshStatus { get }
        /// `UIDevice.isBatteryMonitoringEnabled`, and the battery as iOS reports it when it is on.
        var batteryMonitoringEnabled: Bool { get set }
        var batteryLevel: Float { get }
        var batteryState: UIDevice.BatteryState { get }
        /// `ProcessInfo.isLowPowerModeEnabled`.
        var lowPowerModeEnabled: Bool { get }

        // MARK: Core Location

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

        // MARK: AVFAudio

        func audioSessionSetCategory(_ category: String, mode: String, mixesWithOthers: Bool) throws
        func audioSessionSetActive(_ active: Bool) throws
        func audioPlayerCreated(_ id: ObjectIdentifier, bytes: Int) throws
        /// `play()`; `loops` is `numberOfLoops` (-1 forever). Returns whether playback started.
        func audioPlayerPlay(_ id: ObjectIdentifier, loops: Int, volume: Float) -> Bool
        func audioPlayerStop(_ id: ObjectIdentifier)

        // MARK: BackgroundTasks

        func register(taskIdentifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool
        func submit(_ request: BGTaskRequest) throws
        func taskCompleted(_ task: BGTask, success: Bool)

        // MARK: UserNotifications

        func add(_ request: UNNotificationRequest) -> (any Error)?
        func removePendingNotificationRequests(withIdentifiers identifiers: [String])
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

    /// Shadow only: where the shadow's objects find their backend.
    public enum ShadowSystem {
        /// The installed backend. Set once before the app's code runs (a test's set-up, the
        /// simulator's launch); the shadow, like UIKit, is used from the main thread only, which is
        /// why the unchecked global is safe here.
        nonisolated(unsafe) public static var backend: any ShadowBackend = UninstalledBackend()
    }

    /// The fail-on-use backend: any use before a real one is installed is a programming error.
    final class UninstalledBackend: ShadowBackend {
        private func fail(_ what: String = #function) -> Never {
            preconditionFailure(
                "AppleShadow: \(what) used before a backend was installed; set ShadowSystem.backend first")
        }
        func beginBackgroundTask(name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?) -> Int { fail() }
        func endBackgroundTask(_ rawValue: Int) { fail() }
        var backgroundTimeRemaining: TimeInterval { fail() }
        var applicationState: UIApplication.State { fail() }
        var backgroundRefreshStatus: UIBackgroundRefreshStatus { fail() }
        var batteryMonitoringEnabled: Bool {
            get { fail() }
            set { fail() }
        }
        var batteryLevel: Float { fail() }
        var batteryState: UIDevice.BatteryState { fail() }
        var lowPowerModeEnabled: Bool { fail() }
        var locationServicesEnabled: Bool { fail() }
        func locationManagerCreated(_ manager: CLLocationManager) { fail() }
        func locationManager(_ manager: CLLocationManager, didSet property: ShadowLocationProperty) { fail() }
        func locationManager(_ manager: CLLocationManager, perform call: ShadowLocationCall) { fail() }
        func authorizationStatus(of manager: CLLocationManager) -> CLAuthorizationStatus { fail() }
        func accuracyAuthorization(of manager: CLLocationManager) -> CLAccuracyAuthorization { fail() }
        var monitoredRegions: Set<CLRegion> { fail() }
        func backgroundActivitySessionStarted(_ id: ObjectIdentifier) { fail() }
        func backgroundActivitySessionInvalidated(_ id: ObjectIdentifier) { fail() }
        func serviceSessionStarted(_ id: ObjectIdentifier, authorization: CLServiceSession.AuthorizationRequirement) {
            fail()
        }
        func serviceSessionInvalidated(_ id: ObjectIdentifier) { fail() }
        func audioSessionSetCategory(_ category: String, mode: String, mixesWithOthers: Bool) throws { fail() }
        func audioSessionSetActive(_ active: Bool) throws { fail() }
        func audioPlayerCreated(_ id: ObjectIdentifier, bytes: Int) throws { fail() }
        func audioPlayerPlay(_ id: ObjectIdentifier, loops: Int, volume: Float) -> Bool { fail() }
        func audioPlayerStop(_ id: ObjectIdentifier) { fail() }
        func register(taskIdentifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool { fail() }
        func submit(_ request: BGTaskRequest) throws { fail() }
        func taskCompleted(_ task: BGTask, success: Bool) { fail() }
        func add(_ request: UNNotificationRequest) -> (any Error)? { fail() }
        func removePendingNotificationRequests(withIdentifiers identifiers: [String]) { fail() }
    }
#endif
