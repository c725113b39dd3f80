import BackgroundCore
package import Foundation
package import LocationLog

#if canImport(UIKit)
    public import UIKit
    import CoreLocation
#else
    public import ShadowUIKit
    import ShadowCoreLocation
    import ShadowFoundation
#endif

/// The iOS shell: runs the keep-alive, sampling and sync machines against UIKit, Core Location,
/// BackgroundTasks, UserNotifications and a background `URLSession`, and keeps every sample in
/// the store until the server acknowledges it.
///
/// ```swift
/// let tracker = try Tracker(configuration: .init(server: url, token: token, strategy: .adaptive))
/// // application(_:didFinishLaunchingWithOptions:), before it returns
/// tracker.didFinishLaunching(launchOptions)
/// tracker.start()  // asks for When-In-Use the first time
/// // later, when the user chose to track in the background:
/// if tracker.status.canRequestAlways { tracker.requestAlwaysAuthorization() }
/// for await status in tracker.statusUpdates { … }
/// ```
///
/// The app forwards what only its delegate receives: `applicationDidEnterBackground()`,
/// `applicationWillEnterForeground()`, `handleEventsForBackgroundURLSession(identifier:completionHandler:)`
/// and `didReceiveNotificationResponse(requestIdentifier:)`.
@MainActor
public final class Tracker {
    public internal(set) var configuration: Configuration
    let clock: any ShellClock
    let uploader: any BackgroundUploader
    /// The store, or before the first unlock after a reboot the held store (``heldStore``).
    package internal(set) var store: LocationStore
    /// Opens the store (its files are closed before the first unlock after a reboot).
    let openStore: @MainActor () throws -> LocationStore
    /// The held store this process writes while the store cannot be opened (Tracker+Unlock).
    var heldStore: LocationStore?
    let directory: URL
    let iosMajor: Int
    /// What the app's `Info.plist` declares: the shell asks iOS only for what it allows.
    let appInfo: AppInfo
    /// The device name the batches carry: the app's `Configuration.device`, or none, and the
    /// server files them under the token's device.
    let device: String?
    var state: ShellState
    /// The state file exists but could not be read at launch: it is not overwritten.
    var stateUnreadable = false
    /// The launch flags last written (``ShellState/LaunchFlags``).
    var savedLaunchFlags: ShellState.LaunchFlags?
    /// Fixes this process refused to record (too coarse, stale, from the future, invalid).
    package internal(set) var fixesRejected = 0

    var machine: KeepAliveMachine?
    var sync: SyncDriver
    /// The login's heartbeat, when the app gave a session token.
    var heartbeat: HeartbeatMachine?
    var heartbeatTransport: (any HeartbeatTransport)?
    /// The system's identifier of every task the ledger holds open.
    var taskIDs: [BackgroundTaskToken: UIBackgroundTaskIdentifier] = [:]
    var location: LocationAdapter?
    var audio: AudioAdapter?
    var motion: MotionAdapter?
    var activitySession: CLBackgroundActivitySession?
    /// A `CLServiceSession` (iOS 18+), typed loosely so the property needs no availability.
    var serviceSession: AnyObject?
    /// The task reading the service session's diagnostics (iOS 18 SDKs).
    var diagnosticsTask: Task<Void, Never>?
    /// MetricKit's subscriber, once subscribed in this process.
    var exitReports: ExitReportSubscriber?
    var isForeground = false
    var launched = false
    var uploadsInFlight: Set<String> = []
    var urlSessionCompletion: (() -> Void)?
    /// The `BGTaskScheduler` identifiers registered in this process (at launch only).
    var registeredTasks: Set<String> = []
    /// Refresh and processing tasks still running: completed when the wake's work is done.
    var wakeTasks: [WakeTask] = []
    /// The Location Services switch as last read off the main thread (`environment()` must not
    /// call `locationServicesEnabled()` on it; iOS reports a switched-off device as `.denied`).
    var locationServicesEnabled = true
    /// What the app reads: the status now (also sent on `statusUpdates` at every change).
    public internal(set) var status = TrackerStatus()
    /// The store's change count when `status.pending` was last counted.
    private var pendingCountedAt: Int?
    let statusBroadcast = Broadcast<TrackerStatus>(buffering: .bufferingNewest(1))
    let sampleBroadcast = Broadcast<Sample>(buffering: .bufferingNewest(1000))
    let uploadBroadcast = Broadcast<UploadResult>(buffering: .bufferingNewest(100))
    /// The `ObservableTracker`, once asked for (typed loosely so the property needs no
    /// Observation module where it is missing).
    var observableStorage: AnyObject?
    var settingObservers: [any NSObjectProtocol] = []
    var lastEnvironment: KeepAliveEnvironment?
    /// Since when the store refused samples for a full disk (kept in memory: the store cannot
    /// be written then); the next stored sample records the interval.
    var storageFull = StorageFullWatch()

    static let syncTimer: TimerID = "com.backgroundtracker.sync"

    /// Opens the store in Application Support (or `configuration.directory`), protected until
    /// the first unlock after a reboot (complete until first user authentication), so that
    /// background launches after that unlock can write.
    /// - Throws: `StoreError` when the store cannot be opened, or a file-system error when the
    ///   directory cannot be created.
    ///
    /// Before the first unlock after a reboot (a location relaunch), the store cannot be opened:
    /// the tracker then keeps the samples in a held store and moves them in at the first unlock
    /// (``protectedDataDidBecomeAvailable(configuration:)``). Before that unlock `configuration` is used for
    /// sampling only, with the strategy that ran before the reboot: nothing is uploaded, so a
    /// server and token the app could not read yet do no harm; pass the real ones to
    /// ``protectedDataDidBecomeAvailable(configuration:)``.
    public convenience init(configuration: Configuration) throws {
        let clock = WallClock()
        let directory = try configuration.directory ?? StoreLocation.defaultDirectory()
        let version = ProcessInfo.processInfo.operatingSystemVersion.majorVersion
        try self.init(
            configuration: configuration, clock: clock,
            uploader: URLSessionBackgroundUploader(identifier: configuration.uploadSessionIdentifier),
            heartbeat: configuration.sessionToken.map {
                URLSessionHeartbeatTransport(server: configuration.server, sessionToken: $0)
            },
            openStore: { try StoreLocation.open(in: directory, now: clock.now) }, directory: directory,
            iosMajor: version, appInfo: .main)
    }

    /// The shell with its seams given: tests pass a virtual clock, a fake uploader (and heartbeat
    /// transport), an in-memory store, the iOS version to behave as and the app's `Info.plist`.
    package convenience init(
        configuration: Configuration, clock: any ShellClock, uploader: any BackgroundUploader,
        heartbeat: (any HeartbeatTransport)? = nil, store: LocationStore, directory: URL, iosMajor: Int,
        appInfo: AppInfo, seed: UInt64 = UInt64.random(in: 1...UInt64.max)
    ) throws {
        try self.init(
            configuration: configuration, clock: clock, uploader: uploader, heartbeat: heartbeat,
            openStore: { store }, directory: directory, iosMajor: iosMajor, appInfo: appInfo, seed: seed)
    }

    /// The shell with its seams given and the store opened by `openStore`, which the tracker
    /// calls only while `UIApplication.isProtectedDataAvailable`.
    package init(
        configuration: Configuration, clock: any ShellClock, uploader: any BackgroundUploader,
        heartbeat: (any HeartbeatTransport)? = nil, openStore: @escaping @MainActor () throws -> LocationStore,
        directory: URL, iosMajor: Int, appInfo: AppInfo, seed: UInt64 = UInt64.random(in: 1...UInt64.max)
    ) throws {
        self.appInfo = appInfo
        self.configuration = configuration
        self.clock = clock
        self.uploader = uploader
        self.heartbeatTransport = configuration.sessionToken == nil ? nil : heartbeat
        if heartbeatTransport != nil { self.heartbeat = HeartbeatMachine(configuration: configuration.heartbeat) }
        self.openStore = openStore
        self.directory = directory
        self.iosMajor = iosMajor
        // Never a minted id: the server refuses a batch naming a device other than the token's
        // (docs/protocol.md), so a made-up name would have every upload refused.
        let device = configuration.device
        self.device = device
        guard UIApplication.shared.isProtectedDataAvailable else {
            // Before the first unlock: a held store, and tracking as the launch flags say; no
            // heartbeat (a session token the app could not read would end the session).
            self.heartbeat = nil
            let held = try HeldStores.create(in: directory, now: clock.now)
            self.store = held
            self.heldStore = held
            var state = ShellState()
            if let flags = ShellState.launchFlags(in: directory) {
                state.tracking = flags.tracking
                state.activitySession = flags.activitySession
                // The app's settings may be unreadable too: the strategy that ran goes on.
                if let strategy = flags.strategy.flatMap(StrategyName.init(rawValue:)) {
                    self.configuration.strategy = strategy
                }
            }
            self.state = state
            self.sync = try SyncDriver(store: held, device: device, configuration: configuration.sync, seed: seed)
            return
        }
        let store = try openStore()
        self.store = store
        try StoreLocation.createDirectory(directory.appendingPathComponent("uploads"))
        HeldStores.moveAll(in: directory, into: store, log: { _ in })
        let (state, stateProblem) = ShellState.load(from: Self.stateFile(in: directory))
        self.state = state
        self.sync = try SyncDriver(store: store, device: device, configuration: configuration.sync, seed: seed)
        if let stateProblem {
            // Still there: unreadable (a damaged one was moved aside).
            stateUnreadable = FileManager.default.fileExists(atPath: Self.stateFile(in: directory).path)
            status.lastProblem = stateProblem
            log(.error, stateProblem)
        }
        saveState()
    }

    /// Call from `application(_:didFinishLaunchingWithOptions:)`, before it returns: registers the
    /// `BGTaskScheduler` identifiers the app's `Info.plist` permits (iOS requires it before launch
    /// finishes and raises an exception later), recreates the background `URLSession` so held
    /// answers arrive, recreates the location sessions within the seconds iOS 18 allows, and
    /// restarts tracking if it was on when the app last ran.
    public func didFinishLaunching(_ launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) {
        guard !launched else { return }
        launch(launchOptions, registeringTasks: true)
    }

    /// A hook the app called before `didFinishLaunching(_:)`: a programming error in the app, but
    /// not one worth crashing for. The tracker launches without registering its task identifiers
    /// (iOS raises an exception for a registration after launch finished), says so in
    /// `status.lastProblem` and the diagnostics, and tracks without the refresh and processing
    /// wakes until the next launch.
    private func launchedLate(_ caller: String) {
        let message =
            "\(caller) was called before didFinishLaunching(_:): call tracker.didFinishLaunching(launchOptions) "
            + "in application(_:didFinishLaunchingWithOptions:) before it returns. Background tasks are not "
            + "registered in this process (iOS allows it only during launch), so refresh and processing wakes "
            + "are off until the app is launched again."
        launch(nil, registeringTasks: false)
        status.lastProblem = message
        log(.error, message)
        publish()
    }

    private func launch(_ launchOptions: [UIApplication.LaunchOptionsKey: Any]?, registeringTasks: Bool) {
        launched = true
        if registeringTasks { registerBackgroundTasks() }
        location = LocationAdapter(shell: self)
        location?.refreshServicesSwitch()
        motion = MotionAdapter(shell: self)
        if configuration.allowsSilentAudio { audio = AudioAdapter(shell: self) }
        observeSystemSettings()
        isForeground = UIApplication.shared.applicationState != .background
        uploader.activate { [weak self] event in self?.handle(event) }
        if heldStore == nil { reconcileUploads() }
        readNoticePermission()
        subscribeToExitReports()
        if state.activitySession { recreateLocationSessions() }
        if state.tracking {
            let reason: LaunchReason
            if isForeground {
                reason = .user
            } else {
                reason = launchOptions?[.location] != nil ? .significantChange : .backgroundRefresh
            }
            noteLaunchForGaps(reason, locationLaunch: launchOptions?[.location] != nil)
            startMachine(reason)
        }
        if !isForeground { LocationStore.suspendAll() }
        publish()
    }

    /// Turns tracking on, and asks for When-In-Use permission if location was never asked for.
    ///
    /// Always is not asked for here: Apple recommends When-In-Use first and the upgrade at a
    /// moment the user understands why (``requestAlwaysAuthorization()``).
    public func start() {
        if !launched { launchedLate("start()") }
        guard machine == nil else { return }
        state.tracking = true
        saveState()
        location?.requestWhenInUseIfUndetermined()
        startMachine(isForeground ? .user : .backgroundRefresh)
        publish()
    }

    /// Asks iOS to upgrade When-In-Use to Always, which lets it relaunch the app for significant
    /// changes, visits and regions (`status.canRequestAlways` says whether it can still be asked:
    /// iOS shows the upgrade prompt once). Call it from the foreground, when the user chose
    /// background tracking, after explaining why; from "not determined" iOS shows the
    /// When-In-Use prompt and grants Always provisionally.
    public func requestAlwaysAuthorization() {
        if !launched { launchedLate("requestAlwaysAuthorization()") }
        guard let location, location.authorization != .always, location.authorization != .denied,
            state.askedAlways != true
        else { return }
        state.askedAlways = true
        saveState()
        location.requestAlways()
        publish()
    }

    /// Turns tracking off: ends every task and location service and cancels the dead-man notice.
    /// Samples already stored are still uploaded.
    public func stop() {
        stop(because: "the app turned tracking off")
    }

    /// ``stop()``, with the words the phone's gap record gives for the silence that follows.
    func stop(because detail: String) {
        deliver(.stop)
        noteTrackingStoppedForGaps(detail: detail)
        // Heartbeats belong to tracking; after the server ended the session they have stopped already.
        if case .active = heartbeat?.status { deliverHeartbeat(.loggedOut) }
        machine = nil
        state.tracking = false
        saveState()
        publish()
    }

    /// Call after the user logged in again, when the server had refused the token (uploads are
    /// then held, with a notice) or ended the session (tracking stopped): uploads resume with
    /// `token`, heartbeats with `sessionToken`. Start tracking again with `start()`.
    public func credentialsChanged(token: String, sessionToken: String? = nil) {
        configuration.token = token
        if let sessionToken {
            configuration.sessionToken = sessionToken
            if heartbeatTransport == nil || heartbeatTransport is URLSessionHeartbeatTransport {
                heartbeatTransport = URLSessionHeartbeatTransport(
                    server: configuration.server, sessionToken: sessionToken)
            }
            heartbeat = HeartbeatMachine(configuration: configuration.heartbeat)
            if machine != nil { deliverHeartbeat(.loggedIn) }
        }
        syncCredentialsChanged()
        syncWake()
    }

    /// Forward from `applicationWillTerminate(_:)`: iOS calls it when the user force-quits the app
    /// while it runs (never for a suspended app), so the next launch can say "force-quit".
    public func applicationWillTerminate() {
        let now = clock.now
        try? withStore { try $0.noteWillTerminate(at: now) }
    }

    /// Forward from `applicationDidEnterBackground(_:)` (or the scene's equivalent).
    public func applicationDidEnterBackground() {
        isForeground = false
        deliver(.enteredBackground)
        LocationStore.suspendAll()
    }

    /// Forward from `applicationWillEnterForeground(_:)` (or the scene's equivalent).
    public func applicationWillEnterForeground() {
        isForeground = true
        LocationStore.resumeAll()
        protectedDataDidBecomeAvailable()  // opening the app means the phone was unlocked
        if state.activitySession, activitySession == nil { recreateLocationSessions() }
        systemSettingsChanged()
        readNoticePermission()
        deliver(.enteredForeground)
        deliverHeartbeat(.enteredForeground)
        syncWake()
    }

    /// Forward from `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
    /// Returns `false` (and leaves the handler to the app) for a session that is not the tracker's.
    @discardableResult
    public func handleEventsForBackgroundURLSession(
        identifier: String, completionHandler: @escaping () -> Void
    ) -> Bool {
        guard identifier == configuration.uploadSessionIdentifier else { return false }
        if !launched { launchedLate("handleEventsForBackgroundURLSession(identifier:completionHandler:)") }
        urlSessionCompletion = completionHandler
        return true
    }

    /// Forward from `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` when a
    /// silent push (`content-available: 1`, with the `remote-notification` background mode)
    /// arrives: the strategy takes a fix if it wants one and pending samples go to the upload
    /// session. The tracker then calls `completionHandler`: `.newData` if it stored a sample,
    /// `.noData` if not (or if it is not tracking), `.failed` if the work was not done within
    /// 25 s; iOS terminates an app that has not called it within 30 s.
    public func didReceiveRemoteNotification(
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        if !launched { launchedLate("didReceiveRemoteNotification(fetchCompletionHandler:)") }
        runSilentPush(completionHandler)
    }

    /// Forward from `userNotificationCenter(_:didReceive:withCompletionHandler:)` with
    /// `response.notification.request.identifier`. Returns whether the notification was the
    /// tracker's; the user opening the app resumes tracking through the foreground hook.
    @discardableResult
    public func didReceiveNotificationResponse(requestIdentifier: String) -> Bool {
        guard requestIdentifier.hasPrefix(NoticeAdapter.prefix) else { return false }
        if requestIdentifier == NoticeAdapter.deadManIdentifier {
            state.deadManDueMilliseconds = nil
            saveState()
        }
        return true
    }

    /// The tracker's status now and after every change, for as long as the caller iterates.
    public var statusUpdates: AsyncStream<TrackerStatus> { statusBroadcast.stream(initial: status) }

    // MARK: Internals shared by the adapters

    func startMachine(_ reason: LaunchReason) {
        let environment = environment()
        lastEnvironment = environment
        noteGapConditions(environment)
        var machine = KeepAliveMachine(
            strategy: configuration.strategy, environment: environment, sampling: configuration.sampling,
            at: clock.now)
        if let newest = try? withStore({ try $0.newestSampleTime() }), newest <= clock.now {
            machine.restoreLastSample(at: newest)
        }
        machine.restoreDeadManNotice(due: state.deadManDueMilliseconds.map(Instant.init(milliseconds:)))
        self.machine = machine
        deliver(.launched(reason))
        deliverHeartbeat(.loggedIn)
        syncWake()
    }

    /// Runs the keep-alive machine on one event and carries out its effects.
    func deliver(_ event: KeepAliveEvent) {
        guard var machine else { return }
        let effects = machine.handle(event, at: clock.now)
        // Stored before the effects run: an effect may deliver another event (a refused task).
        self.machine = machine
        perform(effects)
        publish()
    }

    /// The settings the strategies read, from the system: authorisation and precise location,
    /// the Location Services and Background App Refresh switches, Low Power Mode, and the battery (monitoring is turned on at
    /// launch; while iOS reports the level as unknown, -1, the strategy assumes a full battery).
    func environment() -> KeepAliveEnvironment {
        let device = UIDevice.current
        let level = device.batteryLevel
        let state = device.batteryState
        return KeepAliveEnvironment(
            iosMajor: iosMajor, authorization: location?.authorization ?? .notDetermined,
            locationServicesEnabled: locationServicesEnabled,
            lowPowerMode: ProcessInfo.processInfo.isLowPowerModeEnabled,
            batteryLevel: level >= 0 ? Double(level) : 1,
            charging: state == .charging || state == .full,
            backgroundRefreshAvailable: UIApplication.shared.backgroundRefreshStatus == .available,
            allowsSilentAudio: configuration.allowsSilentAudio, preciseLocation: location?.isPrecise ?? true)
    }

    /// Low Power Mode and battery changes reach the machine as they happen (the notifications
    /// are posted while the app runs; a suspended app hears the new values at its next wake,
    /// when `environmentChanged` is sent again).
    func observeSystemSettings() {
        UIDevice.current.isBatteryMonitoringEnabled = true
        let names: [NSNotification.Name] = [
            .NSProcessInfoPowerStateDidChange, UIDevice.batteryLevelDidChangeNotification,
            UIDevice.batteryStateDidChangeNotification, UIApplication.backgroundRefreshStatusDidChangeNotification,
        ]
        for name in names {
            let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) {
                [weak self] _ in
                MainActor.assumeIsolated { self?.systemSettingsChanged() }
            }
            settingObservers.append(token)
        }
        guard heldStore != nil else { return }
        let unlock = NotificationCenter.default.addObserver(
            forName: UIApplication.protectedDataDidBecomeAvailableNotification, object: nil, queue: .main
        ) { [weak self] _ in
            MainActor.assumeIsolated { self?.protectedDataDidBecomeAvailable() }
        }
        settingObservers.append(unlock)
    }

    /// What the power-state, battery and Background App Refresh observers call (also the
    /// simulator's hosted shell: posting those notifications from the main queue blocks forever on
    /// Linux's Foundation, which runs `queue: .main` observers as operations the poster waits for).
    package func systemSettingsChanged() {
        let now = environment()
        guard now != lastEnvironment else { return }
        lastEnvironment = now
        noteGapConditions(now)
        deliver(.environmentChanged(now))
    }

    /// Runs `body` with the store resumed, and suspends it again afterwards while the app is in
    /// the background, so the app never holds a database lock while iOS may suspend it.
    func withStore<T>(_ body: (LocationStore) throws -> T) rethrows -> T {
        LocationStore.resumeAll()
        defer { if !isForeground { LocationStore.suspendAll() } }
        return try body(store)
    }

    func log(_ level: Diagnostic.Level, _ message: String) {
        try? withStore { try $0.log(level, message, at: clock.now) }
    }

    /// Where the shell's state lives, beside the store.
    static func stateFile(in directory: URL) -> URL { directory.appendingPathComponent("shell-state.json") }

    func saveState() {
        let flags = ShellState.LaunchFlags(
            tracking: state.tracking, activitySession: state.activitySession, strategy: configuration.strategy.rawValue)
        if flags != savedLaunchFlags {
            flags.save(in: directory)
            savedLaunchFlags = flags
        }
        // A state file this process could not read is kept for a launch that can (never
        // overwritten with the fresh state of a process that knows nothing); before the first
        // unlock it cannot be written.
        guard !stateUnreadable, heldStore == nil else { return }
        do {
            try state.save(to: Self.stateFile(in: directory))
        } catch {
            status.lastProblem = "could not save the tracker's state in \(directory.path): \(error)"
        }
    }

    func publish() {
        status.isTracking = machine != nil
        if case .rejected = heartbeat?.status { status.sessionEnded = true } else { status.sessionEnded = false }
        status.authorization = location?.authorization ?? .notDetermined
        status.canRequestAlways =
            status.authorization == .whenInUse && state.askedAlways != true
            && configuration.strategy.requirements.needsAlways
        // `publish` runs at every event: count only when the store changed since the last count
        // (reading the change count runs no statement, so it needs no `withStore`).
        let changes = store.changeCount()
        if changes == nil || changes != pendingCountedAt {
            status.pending = (try? withStore { try $0.pendingCount() }) ?? status.pending
            pendingCountedAt = changes
        }
        statusBroadcast.send(status)
        #if canImport(Observation)
            observableIfMade?.update(status: status)
        #endif
    }
}

/// The façade's old name, which is also its module's: `BackgroundTracker.BackgroundTracker`
/// breaks the module interface of an XCFramework. Use ``Tracker``.
@available(*, deprecated, renamed: "Tracker")
public typealias BackgroundTracker = Tracker
