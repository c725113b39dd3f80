import AppleShadow
import BackgroundCore
import Foundation
import IOSSimulator
import LocationLog

/// The shadow's backend while the simulator hosts the iOS shell: answers the shell's questions
/// from the simulator's state (handed over with every event) and turns its calls to UIKit, Core
/// Location, Core Motion, AVFAudio, BackgroundTasks and UserNotifications into the simulator's
/// `SystemCall`s, in the order the shell made them.
///
/// Used on the main thread only, like UIKit; one process at a time (`processEnded()` forgets
/// what died with it, as iOS does).
final class SimulatedSystem: ShadowBackend, InMemoryKeychainBackend {
    /// The simulator's answers as of the event being handled.
    var system: HostedSystemState {
        didSet {
            // The Keychain's items by accessibility: nothing before the first unlock, and the
            // when-unlocked ones only while the user has the phone unlocked, taken to be while
            // the app is on screen (an assumption: the simulated user has no other screen time).
            keychain.protectedDataAvailable = system.protectedDataAvailable
            keychain.deviceUnlocked = system.isForeground
        }
    }
    /// What the shell asked of the system while handling the current event.
    var effects: [SystemCall] = []
    /// Lines for the report's timeline: what the shell did that the simulator has no effect for.
    var notes: [String] = []
    /// What the runtime contract judges (docs/ios-policy.md §Contract), in order.
    var runtime: [RuntimeCall] = []
    /// How many effects the shell had asked for when it crashed: none after that was made.
    var crashedAfterEffects: Int?
    /// What `BGTaskScheduler` allows this app (registrations die with the process).
    private(set) var scheduler: TaskSchedulerModel
    private let plist: InfoPlist
    private let rules: Rules
    /// The refresh or processing tasks the system launched and the app has not completed.
    private var openBackgroundTasks: [String: BGTask] = [:]

    private var nextTask = 1
    private var expirationHandlers: [Int: @MainActor @Sendable () -> Void] = [:]
    private var taskNames: [Int: String] = [:]
    /// The process's location managers, in the order it created them.
    private(set) var managers: [CLLocationManager] = []
    /// Which manager (by creation index) runs each service: a relaunched process creates its
    /// managers in the same order, and iOS delivers to the one the app set up again.
    private var standardManager: Int?
    private var oneShotManagers: [Int] = []
    private var significantManager: Int?
    private var visitManager: Int?
    private var regionManager: Int?
    private var regions: [String: CLRegion] = [:]
    private(set) var launchHandlers: [String: (BGTask) -> Void] = [:]
    private(set) var notifications: [String] = []
    private var players: Set<ObjectIdentifier> = []
    /// The activity manager running motion updates, with its handler (dies with the process).
    private var motionUpdates: (manager: ObjectIdentifier, handler: CMMotionActivityHandler)?
    /// The location sessions the process holds (they die with it).
    private var sessions: [ObjectIdentifier] = []
    /// The process's MetricKit subscribers (they die with it).
    private var metricSubscribers: [any MXMetricManagerSubscriber] = []

    /// The time of the newest stored sample, for the dead-man notice's "last sample" (the shell
    /// writes it only into the notice's text).
    var newestSample: () -> Instant? = { nil }

    /// Which rules of the policy table's runtime contract are on.
    struct Rules {
        var backgroundLocationNeedsMode = true
        var taskRegistration = true
        var mainThread = true
        /// Whether the phone has a motion coprocessor and the user allows Motion & Fitness.
        var motion = SimulationConfiguration.MotionAccess.authorized
        /// How the user answers the notification prompt.
        var notifications = NotificationAnswer.allow
    }

    init(system: HostedSystemState, plist: InfoPlist, rules: Rules = Rules()) {
        self.system = system
        self.plist = plist
        self.rules = rules
        scheduler = TaskSchedulerModel(plist: plist)
    }

    /// A new process starts launching (before `didFinishLaunching`).
    func processStarted() { scheduler.processStarted() }

    /// `application(_:didFinishLaunchingWithOptions:)` returned: registering is too late now.
    func launchFinished() { scheduler.launchFinished() }

    /// The app raised an uncaught exception: it dies here, nothing it asks for afterwards happens.
    func crash(_ crash: RuntimeCrash) {
        guard crashedAfterEffects == nil else { return }
        crashedAfterEffects = effects.count
        runtime.append(.crash(crash))
    }

    /// Marks the main queue, which the main actor's jobs run on even where the process's main
    /// thread is busy elsewhere (a test runner): "on the main thread" as UIKit means it.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// The thread the host runs app code on, inside `MainActor.assumeIsolated` (which traps off the
    /// main actor): where a command-line host's main actor runs.
    var mainActorThread: Thread?

    /// Whether the caller runs on the main thread (or the main queue, or the main actor's thread).
    var onMain: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
            || mainActorThread.map { $0 === Thread.current } == true
    }

    /// Main Thread Checker: UIKit used off the main thread.
    private func checkMainThread(_ api: String) {
        guard rules.mainThread, !onMain else { return }
        runtime.append(.violation("Main Thread Checker: UI API called on a background thread: \(api)"))
    }

    /// The process died: its objects, handlers and registrations go with it. Region monitoring
    /// and the significant-change service are the system's and stay.
    func processEnded() {
        expirationHandlers.removeAll()
        taskNames.removeAll()
        openBackgroundTasks.removeAll()
        managers.removeAll()
        standardManager = nil
        oneShotManagers.removeAll()
        launchHandlers.removeAll()
        players.removeAll()
        motionUpdates = nil
        sessions.removeAll()
        metricSubscribers.removeAll()
    }

    // MARK: UIKit

    func beginBackgroundTask(name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?) -> Int {
        guard !system.refusesNewTasks else { return UIBackgroundTaskIdentifier.invalid.rawValue }
        let id = nextTask
        nextTask += 1
        expirationHandlers[id] = expirationHandler
        taskNames[id] = name ?? ""
        effects.append(.uiKit(.beginBackgroundTask(id: Self.token(id), name: name ?? "")))
        return id
    }

    func endBackgroundTask(_ rawValue: Int) {
        expirationHandlers[rawValue] = nil
        taskNames[rawValue] = nil
        effects.append(.uiKit(.endBackgroundTask(id: Self.token(rawValue))))
    }

    /// The system calls the task's expiration handler.
    @MainActor func expire(_ token: BackgroundTaskToken) {
        let id = Int(token.rawValue)
        guard let handler = expirationHandlers[id] else { return }
        notes.append("expiration handler of task \(id) \"\(taskNames[id] ?? "")\" runs")
        handler()
    }

    var backgroundTimeRemaining: TimeInterval {
        guard let remaining = system.backgroundTimeRemaining else { return .greatestFiniteMagnitude }
        return remaining.seconds
    }

    var applicationState: UIApplication.State {
        checkMainThread("-[UIApplication applicationState]")
        return system.isForeground ? .active : .background
    }
    var backgroundRefreshStatus: UIBackgroundRefreshStatus {
        checkMainThread("-[UIApplication backgroundRefreshStatus]")
        return system.environment.backgroundRefreshAvailable ? .available : .denied
    }
    var batteryMonitoringEnabled = false {
        didSet { checkMainThread("-[UIDevice setBatteryMonitoringEnabled:]") }
    }
    var batteryLevel: Float {
        checkMainThread("-[UIDevice batteryLevel]")
        return batteryMonitoringEnabled ? Float(system.environment.batteryLevel) : -1
    }
    var batteryState: UIDevice.BatteryState {
        checkMainThread("-[UIDevice batteryState]")
        guard batteryMonitoringEnabled else { return .unknown }
        return system.environment.charging ? .charging : .unplugged
    }
    var lowPowerModeEnabled: Bool { system.environment.lowPowerMode }
    var isProtectedDataAvailable: Bool {
        checkMainThread("-[UIApplication isProtectedDataAvailable]")
        return system.protectedDataAvailable
    }

    static func token(_ id: Int) -> BackgroundTaskToken { BackgroundTaskToken(rawValue: UInt64(id)) }

    // MARK: Core Location

    func locationManagerCreated(_ manager: CLLocationManager) { managers.append(manager) }

    func locationManager(_ manager: CLLocationManager, didSet property: ShadowLocationProperty) {
        // Without the `location` mode this is "a fatal error that terminates the app" ([AD-CLM]).
        if case .allowsBackgroundLocationUpdates(true) = property, rules.backgroundLocationNeedsMode,
            !plist.declares("location")
        {
            crash(.backgroundLocationWithoutMode)
        }
    }

    func locationManager(_ manager: CLLocationManager, perform call: ShadowLocationCall) {
        let index = managers.firstIndex { $0 === manager }
        switch call {
        case .requestWhenInUseAuthorization:
            // The simulator shows the prompt; the answer arrives as an authorisation change.
            runtime.append(.requestWhenInUseAuthorization)
        case .requestAlwaysAuthorization:
            runtime.append(.requestAlwaysAuthorization)
        case .startUpdatingLocation:
            standardManager = index
            effects.append(
                .coreLocation(
                    .startUpdatingLocation(
                        LocationUpdatesRequest(
                            accuracy: Self.accuracy(manager.desiredAccuracy),
                            distanceFilter: manager.distanceFilter < 0 ? nil : manager.distanceFilter,
                            allowsBackgroundUpdates: manager.allowsBackgroundLocationUpdates,
                            pausesAutomatically: manager.pausesLocationUpdatesAutomatically))))
        case .stopUpdatingLocation:
            guard standardManager == index else { return }
            standardManager = nil
            effects.append(.coreLocation(.stopUpdatingLocation))
        case .requestLocation:
            if let index { oneShotManagers.append(index) }
            effects.append(.coreLocation(.requestLocation(Self.accuracy(manager.desiredAccuracy))))
        case .startMonitoringSignificantLocationChanges:
            significantManager = index
            effects.append(.coreLocation(.startMonitoringSignificantLocationChanges))
        case .stopMonitoringSignificantLocationChanges:
            significantManager = nil
            effects.append(.coreLocation(.stopMonitoringSignificantLocationChanges))
        case .startMonitoringVisits:
            visitManager = index
            effects.append(.coreLocation(.startMonitoringVisits))
        case .stopMonitoringVisits:
            visitManager = nil
            effects.append(.coreLocation(.stopMonitoringVisits))
        case .startMonitoring(let identifier, let latitude, let longitude, let radius):
            regionManager = index
            regions[identifier] = CLCircularRegion(
                center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), radius: radius,
                identifier: identifier)
            effects.append(.coreLocation(.startMonitoring(latitude: latitude, longitude: longitude, radius: radius)))
        case .stopMonitoring(let identifier):
            guard regions.removeValue(forKey: identifier) != nil else { return }
            effects.append(.coreLocation(.stopMonitoring))
        }
    }

    func authorizationStatus(of manager: CLLocationManager) -> CLAuthorizationStatus {
        // iOS reports every app as denied while Location Services are off (the status's page).
        guard system.environment.locationServicesEnabled else { return .denied }
        switch system.environment.authorization {
        case .always: return .authorizedAlways
        case .whenInUse: return .authorizedWhenInUse
        case .denied: return .denied
        case .notDetermined: return .notDetermined
        }
    }

    func accuracyAuthorization(of manager: CLLocationManager) -> CLAccuracyAuthorization {
        system.environment.preciseLocation ? .fullAccuracy : .reducedAccuracy
    }

    /// On the main thread Xcode warns "This method can cause UI unresponsiveness if invoked on the
    /// main thread" (docs/ios-policy.md §Contract).
    var locationServicesEnabled: Bool {
        if rules.mainThread, onMain {
            runtime.append(
                .warning(
                    "CLLocationManager.locationServicesEnabled() on the main thread: This method can cause UI "
                        + "unresponsiveness if invoked on the main thread"))
        }
        return system.environment.locationServicesEnabled
    }

    /// The library's regions and the host app's own (which count against the 20 per app).
    var monitoredRegions: Set<CLRegion> {
        let own = (0..<system.hostAppRegions).map { CLRegion.shadowRegion(identifier: "host-app-\($0)") }
        return Set(regions.values).union(own)
    }

    func backgroundActivitySessionStarted(_ id: ObjectIdentifier) {
        sessions.append(id)
        effects.append(.coreLocation(.startBackgroundActivitySession))
    }
    func backgroundActivitySessionInvalidated(_ id: ObjectIdentifier) {
        sessions.removeAll { $0 == id }
        effects.append(.coreLocation(.invalidateBackgroundActivitySession))
    }
    func serviceSessionStarted(_ id: ObjectIdentifier, authorization: CLServiceSession.AuthorizationRequirement) {
        sessions.append(id)
        notes.append("CLServiceSession(\(authorization)) created")
        runtime.append(.serviceSessionCreated)
    }
    func serviceSessionInvalidated(_ id: ObjectIdentifier) {
        sessions.removeAll { $0 == id }
        notes.append("CLServiceSession invalidated")
        runtime.append(.serviceSessionInvalidated)
    }

    /// iOS 18 sends a session diagnostic to every session the app holds (its `diagnostics`
    /// sequence), as the simulator's rules decide it (docs/ios-policy.md §Causes). Returns how
    /// many sessions got it.
    func deliverDiagnostic(_ diagnostic: Set<StopCause>) -> Int {
        let map: [StopCause: CLShadowDiagnosticFlags] = [
            .authorizationDenied: .authorizationDenied, .authorizationDeniedGlobally: .authorizationDeniedGlobally,
            .authorizationRestricted: .authorizationRestricted, .alwaysAuthorizationDenied: .alwaysAuthorizationDenied,
            .fullAccuracyDenied: .fullAccuracyDenied, .insufficientlyInUse: .insufficientlyInUse,
            .serviceSessionRequired: .serviceSessionRequired,
        ]
        let flags = CLShadowDiagnosticFlags(diagnostic.compactMap { map[$0] })
        return sessions.filter { CoreLocationShadow.deliverDiagnostic(flags, toSession: $0) }.count
    }

    // MARK: MetricKit

    func metricManagerAdded(_ subscriber: any MXMetricManagerSubscriber) {
        guard !metricSubscribers.contains(where: { $0 === subscriber }) else { return }
        metricSubscribers.append(subscriber)
    }

    func metricManagerRemoved(_ subscriber: any MXMetricManagerSubscriber) {
        metricSubscribers.removeAll { $0 === subscriber }
    }

    /// MetricKit's daily report reaches the subscribers of the running process; returns how many.
    func deliverMetricReport(_ report: BackgroundExitCounts) -> Int {
        let payload = MXMetricPayload(
            shadowBegin: Date(timeIntervalSince1970: report.begin.seconds),
            end: Date(timeIntervalSince1970: report.end.seconds),
            backgroundExits: Dictionary(uniqueKeysWithValues: report.counts.map { ($0.key.rawValue, $0.value) }))
        for subscriber in metricSubscribers { subscriber.didReceive([payload]) }
        return metricSubscribers.count
    }

    /// The manager iOS delivers a service's events to in this process, if the app created it.
    func manager(for source: FixSource) -> CLLocationManager? {
        let index: Int?
        switch source {
        case .standardUpdates: index = standardManager
        case .oneShot: index = oneShotManagers.isEmpty ? nil : oneShotManagers.removeFirst()
        case .significantChange: index = significantManager
        case .visit: index = visitManager
        case .regionExit: index = regionManager
        }
        guard let index, managers.indices.contains(index) else { return nil }
        return managers[index]
    }

    /// The region the app monitors that the user left, as iOS reports it (it stops monitoring it).
    func regionLeft() -> CLRegion? {
        guard let region = regions.values.first else { return nil }
        regions[region.identifier] = nil
        return region
    }

    static func accuracy(_ value: CLLocationAccuracy) -> LocationAccuracy {
        switch value {
        case ..<0: return .best
        case ..<50: return .tenMeters
        case ..<500: return .hundredMeters
        case ..<2000: return .kilometer
        default: return .threeKilometers
        }
    }

    // MARK: Core Motion

    var motionActivityAvailable: Bool { rules.motion != .unavailable }

    var motionAuthorizationStatus: CMAuthorizationStatus {
        switch rules.motion {
        case .authorized: return .authorized
        case .denied: return .denied
        case .unavailable: return .notDetermined
        }
    }

    func motionActivityManager(
        _ manager: CMMotionActivityManager, startActivityUpdatesTo queue: OperationQueue,
        handler: @escaping CMMotionActivityHandler
    ) {
        // "If you don't include a usage description string, your app crashes" ([AD-CMMAM]).
        guard plist.hasMotionUsage else {
            crash(.motionWithoutUsageDescription)
            return
        }
        motionUpdates = (ObjectIdentifier(manager), handler)
        effects.append(.coreMotion(.startActivityUpdates))
    }

    func motionActivityManagerStoppedUpdates(_ manager: CMMotionActivityManager) {
        guard motionUpdates?.manager == ObjectIdentifier(manager) else { return }
        motionUpdates = nil
        effects.append(.coreMotion(.stopActivityUpdates))
    }

    /// The coprocessor's new activity reaches the handler the app gave. The shell asks for the
    /// main queue, which is where the host runs app code: the handler runs now.
    @MainActor func deliverMotion(_ activity: MotionActivity, at now: Instant) {
        guard let handler = motionUpdates?.handler else {
            notes.append("a motion activity arrived, but no activity manager of the app asked for it")
            return
        }
        handler(
            CMMotionActivity(
                shadowStationary: activity.kind == .stationary, walking: activity.kind == .walking,
                running: activity.kind == .running, automotive: activity.kind == .automotive,
                cycling: activity.kind == .cycling, unknown: activity.kind == .unknown,
                confidence: CMMotionActivityConfidence(rawValue: activity.confidence.rawValue) ?? .low,
                startDate: Date(timeIntervalSince1970: now.seconds)))
    }

    // MARK: AVFAudio

    func audioSessionSetCategory(_ category: String, mode: String, mixesWithOthers: Bool) throws {}
    func audioSessionSetActive(_ active: Bool) throws {}
    func audioPlayerCreated(_ id: ObjectIdentifier, bytes: Int) throws {}

    func audioPlayerPlay(_ id: ObjectIdentifier, loops: Int, volume: Float) -> Bool {
        players.insert(id)
        // One second of silence, repeated `loops` more times (-1: until stopped).
        effects.append(.avfAudio(.play(duration: loops < 0 ? nil : .seconds(loops + 1))))
        return true
    }

    func audioPlayerStop(_ id: ObjectIdentifier) {
        guard players.remove(id) != nil else { return }
        effects.append(.avfAudio(.stop))
    }

    // MARK: BackgroundTasks

    func register(taskIdentifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool {
        if rules.taskRegistration {
            switch scheduler.register(taskIdentifier) {
            case .registered: break
            case .refused:
                notes.append(
                    "BGTaskScheduler.register(\(taskIdentifier)) returned false: not in "
                        + "BGTaskSchedulerPermittedIdentifiers")
                return false
            case .crash(let crash):
                self.crash(crash)
                return false
            }
        }
        launchHandlers[taskIdentifier] = launchHandler
        return true
    }

    func submit(_ request: BGTaskRequest) throws {
        if rules.taskRegistration,
            let error = scheduler.submit(
                request.identifier, kind: request is BGProcessingTaskRequest ? .processing : .refresh,
                backgroundRefreshAvailable: system.environment.backgroundRefreshAvailable)
        {
            runtime.append(.submitRefused(identifier: request.identifier, error))
            throw BGTaskScheduler.Error(BGTaskScheduler.Error.Code(rawValue: error.rawValue) ?? .notPermitted)
        }
        let earliest = request.earliestBeginDate.map { Instant(seconds: $0.timeIntervalSince1970) } ?? system.now
        if request is BGProcessingTaskRequest {
            effects.append(.backgroundTasks(.submit(.processing(earliest: earliest))))
        } else {
            effects.append(.backgroundTasks(.submit(.refresh(earliest: earliest))))
        }
    }

    func taskCompleted(_ task: BGTask, success: Bool) {
        guard openBackgroundTasks[task.identifier] === task else {
            notes.append("BGTask \(task.identifier) completed again (success: \(success)); iOS ignores it")
            return
        }
        openBackgroundTasks[task.identifier] = nil
        runtime.append(.backgroundTaskCompleted(identifier: task.identifier, success: success))
    }

    /// The system launches a refresh or processing task: the app holds it until it completes it.
    func taskLaunched(_ task: BGTask) {
        scheduler.launched(task.identifier)
        openBackgroundTasks[task.identifier] = task
    }

    /// The task's time is nearly up: iOS calls its expiration handler (no handler: the task is
    /// marked complete and unsuccessful, [AD-bgexp]).
    @MainActor func expireBackgroundTask(_ identifier: String) {
        guard let task = openBackgroundTasks[identifier] else { return }
        guard let handler = task.expirationHandler else {
            taskCompleted(task, success: false)
            return
        }
        notes.append("expiration handler of BGTask \(identifier) runs")
        handler()
    }

    // MARK: Security

    /// The phone's keychain (system state: it outlives the app's processes).
    let keychain = InMemoryKeychain()

    // MARK: UserNotifications

    static let noticePrefix = "com.backgroundtracker.notice."
    static let deadManIdentifier = "com.backgroundtracker.dead-man"

    /// While the app may not notify, iOS refuses the request: `add` completes with
    /// `UNError.notificationsNotAllowed` and nothing is shown (docs/ios-policy.md §Notifications).
    /// The simulator still hears of it, to count what the user was not shown.
    func add(_ request: UNNotificationRequest) -> (any Error)? {
        notifications.append(request.identifier)
        let refused: (any Error)? =
            system.notifications.delivers ? nil : UNError(.notificationsNotAllowed)
        if request.identifier == Self.deadManIdentifier {
            let interval = (request.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval ?? 0
            let due = system.now + .milliseconds(Int64((interval * 1000).rounded()))
            effects.append(
                .userNotifications(.addDeadManNotice(due: due, lastSample: newestSample() ?? system.now)))
        } else if request.identifier.hasPrefix(Self.noticePrefix),
            let notice = UserNotice(rawValue: String(request.identifier.dropFirst(Self.noticePrefix.count)))
        {
            effects.append(.userNotifications(.add(kind: notice.rawValue)))
        } else {
            notes.append("notification \(request.identifier) posted")
        }
        return refused
    }

    /// The prompt (or the quiet provisional grant) answered as the user answers
    /// (`--notifications`); the simulator's notification centre hears the same request.
    func requestAuthorization(options: UNAuthorizationOptions) -> (granted: Bool, error: (any Error)?) {
        let provisional = options.contains(.provisional)
        system.notifications = system.notifications.afterRequest(
            provisional: provisional, answer: rules.notifications)
        runtime.append(.requestNotificationAuthorization(provisional: provisional))
        return (system.notifications.delivers, nil)
    }

    var authorizationStatus: UNAuthorizationStatus {
        switch system.notifications {
        case .notDetermined: return .notDetermined
        case .denied: return .denied
        case .authorized: return .authorized
        case .provisional: return .provisional
        }
    }

    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        if identifiers.contains(Self.deadManIdentifier) {
            effects.append(.userNotifications(.removePendingDeadManNotice))
        }
    }
}

extension SimulatedSystem.Rules {
    /// The rules the policy table turns on for this run's iOS profile.
    init(_ configuration: SimulationConfiguration) {
        let profile = configuration.profile
        self.init(
            backgroundLocationNeedsMode: profile?.flag(.contractBackgroundLocationMode) ?? true,
            taskRegistration: profile?.flag(.contractTaskRegistration) ?? true,
            mainThread: profile?.flag(.contractMainThread) ?? true,
            // No motion activity before iOS 7 (the table's latency is 0 there).
            motion: (profile?[.motionDetectionLatency] ?? 0) > 0 ? configuration.motion : .unavailable,
            notifications: configuration.notifications)
    }
}
