import AppleShadow
import Foundation

/// A fake iOS behind the shadow: records every call the shell makes, in order, and lets a test
/// play the system's part (expire a task, deliver a fix, launch a background task).
final class FakeSystem: ShadowBackend, InMemoryKeychainBackend {
    /// Every call, in order, as a short line ("register com.backgroundtracker.refresh").
    var trace: [String] = []

    // UIKit
    var applicationState: UIApplication.State = .active
    var backgroundRefreshStatus: UIBackgroundRefreshStatus = .available
    var backgroundTimeRemaining: TimeInterval = .greatestFiniteMagnitude
    var batteryMonitoringEnabled = false
    var batteryLevel: Float = 0.8
    var batteryState: UIDevice.BatteryState = .unplugged
    var lowPowerModeEnabled = false
    /// `UIApplication.isProtectedDataAvailable`: `false` after a reboot until the first unlock.
    var isProtectedDataAvailable = true
    /// The Location Services switch. iOS reports an app's status as `.denied` while it is off.
    var servicesSwitch = true
    private let queries = NSLock()
    private var servicesQueriesOnMain = 0
    private var servicesQueriesElsewhere = 0
    /// `CLLocationManager.locationServicesEnabled()` calls, by thread: Xcode flags those on the
    /// main thread ("can cause UI unresponsiveness").
    var servicesQueries: (onMain: Int, elsewhere: Int) {
        queries.withLock { (servicesQueriesOnMain, servicesQueriesElsewhere) }
    }
    var locationServicesEnabled: Bool {
        queries.withLock {
            if Thread.isMainThread { servicesQueriesOnMain += 1 } else { servicesQueriesElsewhere += 1 }
        }
        return servicesSwitch
    }
    var refuseTasks = false
    private var nextTask = 1
    var openTasks: [Int: String] = [:]
    private var expirationHandlers: [Int: @MainActor @Sendable () -> Void] = [:]
    private var expiring: Int?
    /// Tasks ended while their own expiration handler was running.
    var endedInsideHandler: [Int] = []

    func beginBackgroundTask(name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?) -> Int {
        trace.append("beginBackgroundTask \(name ?? "-")")
        guard !refuseTasks else { return UIBackgroundTaskIdentifier.invalid.rawValue }
        let id = nextTask
        nextTask += 1
        openTasks[id] = name ?? ""
        expirationHandlers[id] = expirationHandler
        return id
    }

    func endBackgroundTask(_ rawValue: Int) {
        trace.append("endBackgroundTask \(rawValue)")
        if expiring == rawValue { endedInsideHandler.append(rawValue) }
        openTasks[rawValue] = nil
        expirationHandlers[rawValue] = nil
    }

    /// The system calls the task's expiration handler, as iOS does shortly before time runs out.
    @MainActor func expire(_ id: Int) {
        guard let handler = expirationHandlers[id] else { return }
        expiring = id
        handler()
        expiring = nil
    }

    // Core Location
    var managers: [CLLocationManager] = []
    var authorization: CLAuthorizationStatus = .authorizedAlways
    var accuracy: CLAccuracyAuthorization = .fullAccuracy
    var regions: [String: CLRegion] = [:]
    var sets: [(manager: ObjectIdentifier, property: ShadowLocationProperty)] = []
    var calls: [(manager: ObjectIdentifier, call: ShadowLocationCall)] = []
    var activitySessions: Set<ObjectIdentifier> = []
    var serviceSessions: [ObjectIdentifier: CLServiceSession.AuthorizationRequirement] = [:]

    func locationManagerCreated(_ manager: CLLocationManager) {
        trace.append("CLLocationManager()")
        managers.append(manager)
    }

    func locationManager(_ manager: CLLocationManager, didSet property: ShadowLocationProperty) {
        trace.append("set \(property)")
        sets.append((ObjectIdentifier(manager), property))
    }

    func locationManager(_ manager: CLLocationManager, perform call: ShadowLocationCall) {
        trace.append("\(call)")
        calls.append((ObjectIdentifier(manager), call))
        switch call {
        case .startMonitoring(let identifier, let latitude, let longitude, let radius):
            regions[identifier] = CLCircularRegion(
                center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), radius: radius,
                identifier: identifier)
        case .stopMonitoring(let identifier):
            regions[identifier] = nil
        default:
            break
        }
    }

    func authorizationStatus(of manager: CLLocationManager) -> CLAuthorizationStatus {
        servicesSwitch ? authorization : .denied
    }
    func accuracyAuthorization(of manager: CLLocationManager) -> CLAccuracyAuthorization { accuracy }
    var monitoredRegions: Set<CLRegion> { Set(regions.values) }

    func backgroundActivitySessionStarted(_ id: ObjectIdentifier) {
        trace.append("CLBackgroundActivitySession()")
        activitySessions.insert(id)
    }

    func backgroundActivitySessionInvalidated(_ id: ObjectIdentifier) {
        trace.append("CLBackgroundActivitySession.invalidate()")
        activitySessions.remove(id)
    }

    func serviceSessionStarted(_ id: ObjectIdentifier, authorization: CLServiceSession.AuthorizationRequirement) {
        trace.append("CLServiceSession(\(authorization))")
        serviceSessions[id] = authorization
    }

    func serviceSessionInvalidated(_ id: ObjectIdentifier) {
        trace.append("CLServiceSession.invalidate()")
        serviceSessions[id] = nil
    }

    /// Delivers a fix to one manager's delegate, as Core Location does.
    func deliver(_ location: CLLocation, to manager: CLLocationManager) {
        manager.delegate?.locationManager(manager, didUpdateLocations: [location])
    }

    // BackgroundTasks
    var launchHandlers: [String: (BGTask) -> Void] = [:]
    var submitted: [BGTaskRequest] = []
    var completedTasks: [(identifier: String, success: Bool)] = []

    func register(taskIdentifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool {
        trace.append("register \(taskIdentifier)")
        launchHandlers[taskIdentifier] = launchHandler
        return true
    }

    func submit(_ request: BGTaskRequest) throws {
        trace.append("submit \(request.identifier)")
        submitted.append(request)
    }

    func taskCompleted(_ task: BGTask, success: Bool) {
        completedTasks.append((task.identifier, success))
    }

    // UserNotifications
    var notificationRequests: [UNNotificationRequest] = []
    var removedNotifications: [String] = []
    /// `UNNotificationSettings.authorizationStatus`; tests of the shell's other parts run allowed.
    var notificationStatus = UNAuthorizationStatus.authorized
    /// What the user answers at the prompt (when `notificationStatus` is not determined).
    var notificationAnswer = UNAuthorizationStatus.authorized
    /// The options of every `requestAuthorization` call.
    var authorizationRequests: [UNAuthorizationOptions] = []
    /// Requests iOS refused (`add` completed with an error): never shown.
    var refusedNotifications: [String] = []

    func add(_ request: UNNotificationRequest) -> (any Error)? {
        trace.append("add notification \(request.identifier)")
        guard [.authorized, .provisional, .ephemeral].contains(notificationStatus) else {
            refusedNotifications.append(request.identifier)
            return UNError(.notificationsNotAllowed)
        }
        notificationRequests.removeAll { $0.identifier == request.identifier }
        notificationRequests.append(request)
        return nil
    }

    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        removedNotifications += identifiers
        notificationRequests.removeAll { identifiers.contains($0.identifier) }
    }

    func requestAuthorization(options: UNAuthorizationOptions) -> (granted: Bool, error: (any Error)?) {
        authorizationRequests.append(options)
        if notificationStatus == .notDetermined {
            notificationStatus = options.contains(.provisional) ? .provisional : notificationAnswer
        }
        return ([.authorized, .provisional, .ephemeral].contains(notificationStatus), nil)
    }

    var authorizationStatus: UNAuthorizationStatus { notificationStatus }

    // Security
    let keychain = InMemoryKeychain()

    // AVFAudio
    var audioPlaying: Set<ObjectIdentifier> = []
    var audioSessionActive = false

    func audioSessionSetCategory(_ category: String, mode: String, mixesWithOthers: Bool) throws {
        trace.append("AVAudioSession.setCategory \(category) mix=\(mixesWithOthers)")
    }
    func audioSessionSetActive(_ active: Bool) throws {
        trace.append("AVAudioSession.setActive \(active)")
        audioSessionActive = active
    }
    func audioPlayerCreated(_ id: ObjectIdentifier, bytes: Int) throws { trace.append("AVAudioPlayer(\(bytes) bytes)") }
    func audioPlayerPlay(_ id: ObjectIdentifier, loops: Int, volume: Float) -> Bool {
        trace.append("AVAudioPlayer.play loops=\(loops) volume=\(volume)")
        audioPlaying.insert(id)
        return true
    }
    func audioPlayerStop(_ id: ObjectIdentifier) {
        trace.append("AVAudioPlayer.stop")
        audioPlaying.remove(id)
    }

    // CoreMotion
    var motionActivityAvailable = true
    var motionAuthorizationStatus: CMAuthorizationStatus = .authorized
    /// The handler of the running activity updates, if any.
    var motionHandler: CMMotionActivityHandler?

    func motionActivityManager(
        _ manager: CMMotionActivityManager, startActivityUpdatesTo queue: OperationQueue,
        handler: @escaping CMMotionActivityHandler
    ) {
        trace.append("CMMotionActivityManager.startActivityUpdates")
        motionHandler = handler
    }

    func motionActivityManagerStoppedUpdates(_ manager: CMMotionActivityManager) {
        trace.append("CMMotionActivityManager.stopActivityUpdates")
        motionHandler = nil
    }

    // MetricKit
    var metricSubscribers: [any MXMetricManagerSubscriber] = []

    func metricManagerAdded(_ subscriber: any MXMetricManagerSubscriber) {
        trace.append("MXMetricManager.add")
        metricSubscribers.append(subscriber)
    }

    func metricManagerRemoved(_ subscriber: any MXMetricManagerSubscriber) {
        trace.append("MXMetricManager.remove")
        metricSubscribers.removeAll { $0 === subscriber }
    }

    /// MetricKit delivers its daily report to every subscriber.
    func deliverMetricReport(_ payload: MXMetricPayload) {
        for subscriber in metricSubscribers { subscriber.didReceive([payload]) }
    }
}
