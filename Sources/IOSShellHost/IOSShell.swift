import AppleShadow
import BackgroundCore
import BackgroundTracker
import Foundation
package import IOSSimulator
package import LocationLog

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app every simulation runs (`bgtrack simulate`, `compare`, `demo`): the iOS shell, the
/// code an app links, through Apple's API as the shadow frameworks carry it.
///
/// Each event reaches the shell as the callback iOS would make: a launch is a new
/// `Tracker` and `didFinishLaunching` (with the location key after a location
/// relaunch, and the `BGTaskScheduler` launch handler for a refresh or processing launch), a fix
/// is the location manager delegate's call on the manager that asked, an expiry is the task's
/// expiration handler, a timer is the shell clock's timer, a fix that cannot be had is the
/// delegate's `locationManager(_:didFailWithError:)`. Everything the shell then asks of
/// UIKit, Core Location, Core Motion, AVFAudio, BackgroundTasks and UserNotifications (through
/// AppleShadow) comes back as the `SystemCall`s the simulator carries out and checks, so the
/// ledger, suspension and nothing-lost checks judge the shell that ships.
///
/// The shell stores its samples in the simulator's phone store and uploads them through its
/// background `URLSession`, which the simulator runs as the system does (out of process,
/// rate-limited, the answer delivered when the app runs, relaunching it if need be), so the nothing-lost check judges the shell's own acknowledgements. Runs on the
/// main thread, as UIKit code does.
package struct IOSShell: HostedAppFactory {
    /// The `Tracker.Configuration.device` the app sets: the token's own device
    /// (``SimulatedServer/tokenDevice``) by default; `nil` names none, as the example app does.
    package var device: String?

    package init(device: String? = "simulated-phone") {
        self.device = device
    }

    package var name: String { "ios" }

    package func makeApp(for configuration: SimulationConfiguration, store: LocationStore) -> any HostedApp {
        IOSShellApp(configuration: configuration, store: store, device: device)
    }
}

/// One simulated day of the iOS shell.
final class IOSShellApp: HostedApp, @unchecked Sendable {
    // Touched only on the main thread (every entry point asserts it), like the shell itself.
    private let configuration: SimulationConfiguration
    private let directory: URL
    private let store: LocationStore
    private let backend: SimulatedSystem
    private let uploader = SimulatedUploader()
    private let heartbeats = SimulatedHeartbeatTransport()
    /// The app's login, kept on disk by the app: `false` once the server ended the session (the
    /// shell's status said so), until the user logs in again.
    private var loggedIn: Bool
    private let previousBackend: (any ShadowBackend)?
    private var process: (tracker: Tracker, clock: HostClock)?
    private var started = false
    private var lastSeq: Int64 = 0
    /// The store's change count when `newSamples` last read it.
    private var changesSeen: Int?
    /// The held store the shell writes before the first unlock after a reboot, the last `seq`
    /// read of it, and the samples read there that have not reached the phone's store yet.
    private var held: (store: LocationStore, lastSeq: Int64, changes: Int?)?
    private var heldSamples: Set<UUID> = []
    private var lastEnvironment: SystemSettings
    private let device: String?
    /// The shell's status after the last event (the process may be gone by the end).
    private var lastStatus: TrackerStatus?

    init(configuration: SimulationConfiguration, store: LocationStore, device: String?) {
        self.device = device
        self.configuration = configuration
        loggedIn = configuration.scenario.loggedIn
        directory = Self.scratchRoot.appendingPathComponent(
            "bgtrack-shell-\(UUID().uuidString)", isDirectory: true)
        self.store = store
        // Samples already in a store passed in are the simulator's carried-over ones.
        lastSeq = (try? store.newestPending(limit: 1).first?.seq) ?? nil ?? 0
        // A fresh install: location is not determined until the user answers a prompt.
        let environment = SystemSettings(
            iosMajor: configuration.ios, authorization: .notDetermined,
            batteryLevel: configuration.scenario.battery.start, allowsSilentAudio: configuration.allowsSilentAudio)
        lastEnvironment = environment
        backend = SimulatedSystem(
            system: HostedSystemState(
                now: configuration.scenario.start, isForeground: true, backgroundTimeRemaining: nil,
                refusesNewTasks: false, environment: environment, hostAppRegions: configuration.hostAppRegions),
            plist: configuration.effectivePlist, rules: SimulatedSystem.Rules(configuration))
        previousBackend = ShadowSystem.backend
        ShadowSystem.backend = backend
        let store = self.store
        backend.newestSample = { try? store.newestSampleTime() }
    }

    /// Where the simulated app keeps its files (state, upload bodies): memory-backed `/dev/shm`
    /// where Linux has it, else the temporary directory. The shell writes them as on a phone
    /// (atomically, at every sample); the simulated day needs their contents, not a disk's
    /// durability (the simulator models kills itself), and on a disk those writes were a third
    /// of a hosted day's time.
    static let scratchRoot: URL = {
        var isDirectory: ObjCBool = false
        let shm = "/dev/shm"
        if FileManager.default.fileExists(atPath: shm, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: shm)
        {
            return URL(fileURLWithPath: shm, isDirectory: true)
        }
        return FileManager.default.temporaryDirectory
    }()

    var ledgerOpenTasks: [BackgroundTaskToken] {
        MainActor.assumeIsolated {
            guard let process else { return [] }
            // A ledger task with no system identifier shows as a token the system never issued.
            return process.tracker.ledgerTaskIdentifiers.map {
                $0.map(SimulatedSystem.token) ?? BackgroundTaskToken(rawValue: .max)
            }
        }
    }

    func handle(_ event: AppCallback, system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated { running(system) { run(event, system: system) } }
    }

    func uploadFinished(_ description: String, answer: HostedAnswer, system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated {
            running(system) {
                uploader.deliver(
                    .finished(
                        description: description, status: answer.status, body: answer.body,
                        retryAfter: answer.retryAfter, error: answer.error, offline: answer.offline))
                uploader.deliver(.allEventsDelivered)
            }
        }
    }

    func dataTaskFinished(_ id: Int, answer: HostedAnswer, system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated { running(system) { heartbeats.finish(id, answer: answer) } }
    }

    /// The user logged in again: the app hands the shell the new credentials, and starts tracking
    /// again if the session's end had stopped it (the login screen's "Log in" does both).
    func credentialsChanged(system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated {
            running(system) {
                guard let tracker = process?.tracker else { return }
                let stamp = system.now.milliseconds
                tracker.credentialsChanged(
                    token: "simulated-token-\(stamp)",
                    sessionToken: configuration.scenario.loggedIn ? "simulated-session-\(stamp)" : nil)
                guard configuration.scenario.loggedIn, !loggedIn else { return }
                loggedIn = true
                backend.notes.append("logged in again; tracking restarts")
                tracker.start()
            }
        }
    }

    /// Runs app code with the system's answers as of now and collects what it did.
    func backgroundTaskExpiring(_ identifier: String, system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated { running(system) { backend.expireBackgroundTask(identifier) } }
    }

    func locationFailed(_ failure: LocationFailure, system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated { running(system) { fail(failure) } }
    }

    func sessionDiagnostic(_ causes: Set<StopCause>, system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated {
            running(system) {
                if backend.deliverDiagnostic(causes) == 0 {
                    backend.notes.append("a location session diagnostic arrived, but the app holds no session")
                }
            }
        }
    }

    func metricReport(_ report: BackgroundExitCounts, system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated {
            running(system) {
                if backend.deliverMetricReport(report) == 0 {
                    backend.notes.append("MetricKit's report arrived, but the app has no subscriber")
                }
            }
        }
    }

    @MainActor private func running(_ system: HostedSystemState, _ body: () -> Void) -> HostedResult {
        // This app's system answers its calls even if another simulation was made since this one.
        ShadowSystem.backend = backend
        backend.system = system
        backend.mainActorThread = Thread.current
        backend.effects = []
        backend.runtime = []
        backend.crashedAfterEffects = nil
        uploader.system = system
        process?.clock.now = system.now
        body()
        if process?.tracker.status.sessionEnded == true { loggedIn = false }
        noteNoticePermission()
        if system.isForeground, let tracker = process?.tracker, tracker.status.canRequestAlways {
            // The example app's flow: once the user allowed When-In-Use and has the app open, it
            // explains background tracking and the user taps "Allow in the background", which
            // shows iOS's Always upgrade prompt.
            tracker.requestAlwaysAuthorization()
        }
        // A file the session could not read would reach the server as garbage: answer 400.
        while let failure = uploader.unreadable.first {
            uploader.unreadable.removeFirst()
            backend.notes.append("upload file unreadable, answered 400: \(failure.reason)")
            uploader.deliver(
                .finished(
                    description: failure.description, status: 400, body: Data(#"{"error":"unreadable body"}"#.utf8),
                    retryAfter: nil, error: nil, offline: false))
        }
        // After a crash nothing the shell asked for happened: its process was already gone.
        let made = backend.crashedAfterEffects.map { Array(backend.effects.prefix($0)) } ?? backend.effects
        let recorded = newSamples(precise: system.environment.preciseLocation)  // may add notes
        let crashed = backend.crashedAfterEffects != nil
        let result = HostedResult(
            effects: made + backend.notes.map { SystemCall.note("shell: " + $0) },
            recorded: recorded, uploads: crashed ? [] : uploader.started, runtime: backend.runtime,
            dataTasks: crashed ? [] : heartbeats.started)
        backend.runtime = []
        backend.notes = []
        backend.effects = []
        uploader.started = []
        heartbeats.started = []
        return result
    }

    /// The status's notice permission, in the timeline when it changes.
    @MainActor private func noteNoticePermission() {
        guard let status = process?.tracker.status else { return }
        if status.noticePermission != lastStatus?.noticePermission {
            backend.notes.append(
                "status: notification permission \(status.noticePermission.rawValue)"
                    + (status.noticePermission.problem.map { ": " + $0 } ?? ""))
        }
        if let refused = status.noticeRefused, refused != lastStatus?.noticeRefused {
            backend.notes.append("status: \(refused)")
        }
        if let cause = status.lastStopCause, cause != lastStatus?.lastStopCause {
            backend.notes.append("status: \(cause)")
        }
        lastStatus = status
    }

    var statusLines: [String] {
        MainActor.assumeIsolated {
            guard let status = process?.tracker.status ?? lastStatus else { return [] }
            var lines = [
                "tracking: \(status.isTracking ? "on" : "off")",
                "notification permission: \(status.noticePermission.rawValue)",
            ]
            if let problem = status.noticePermission.problem { lines.append(problem) }
            if let refused = status.noticeRefused { lines.append("notice refused: \(refused)") }
            if let cause = status.lastStopCause { lines.append("last stop cause: \(cause)") }
            return lines
        }
    }

    func protectedDataDidBecomeAvailable(system: HostedSystemState) -> HostedResult {
        // What the `protectedDataDidBecomeAvailableNotification` observer does (posting it from
        // the main queue blocks on Linux's Foundation, as for the settings observers).
        MainActor.assumeIsolated { running(system) { process?.tracker.protectedDataDidBecomeAvailable() } }
    }

    var samplesHeldOutsideStore: Int { MainActor.assumeIsolated { heldSamples.count } }

    func willTerminate(system: HostedSystemState) -> HostedResult {
        MainActor.assumeIsolated { running(system) { process?.tracker.applicationWillTerminate() } }
    }

    /// Fixes refused by the processes that ended.
    private var fixesRejectedBefore = 0

    var fixesRejected: Int {
        MainActor.assumeIsolated { fixesRejectedBefore + (process?.tracker.fixesRejected ?? 0) }
    }

    func processTerminated() {
        MainActor.assumeIsolated {
            fixesRejectedBefore += process?.tracker.fixesRejected ?? 0
            process = nil
            heartbeats.processEnded()
            backend.processEnded()
        }
    }

    func simulationEnded() {
        MainActor.assumeIsolated {
            process = nil
            ShadowSystem.backend = previousBackend
            try? FileManager.default.removeItem(at: directory)
        }
    }

    // MARK: Events as iOS delivers them

    @MainActor private func run(_ event: AppCallback, system: HostedSystemState) {
        switch event {
        case .launched(let reason): launch(reason, system: system)
        case .enteredBackground: process?.tracker.applicationDidEnterBackground()
        case .enteredForeground: process?.tracker.applicationWillEnterForeground()
        case .woke(let reason): wake(reason)
        case .timerFired(let id): process?.clock.fire(id)
        case .taskExpiring(let token): backend.expire(token)
        case .taskRefused: break  // the shell saw `.invalid` when it asked
        case .locationFix(let fix, let source): deliver(fix, source: source)
        case .settingsChanged(let environment): settingsChanged(to: environment)
        case .audioInterruption(let began): process?.tracker.hostAudioInterruption(began: began)
        case .motionActivity(let activity): backend.deliverMotion(activity, at: system.now)
        }
    }

    @MainActor private func launch(_ reason: LaunchReason, system: HostedSystemState) {
        lastEnvironment = system.environment
        backend.processStarted()
        let clock = HostClock(now: system.now, system: backend)
        let shellConfiguration = Tracker.Configuration(
            server: URL(string: "https://simulated.invalid") ?? URL(fileURLWithPath: "/"), token: "simulated",
            strategy: configuration.strategy, device: device,
            sampling: .init(interval: configuration.samplingInterval),
            sync: .init(uploadInterval: configuration.uploadInterval), directory: directory,
            allowsSilentAudio: configuration.allowsSilentAudio,
            sessionToken: configuration.scenario.loggedIn ? "simulated-session" : nil)
        let tracker: Tracker
        do {
            tracker = try Tracker(
                configuration: shellConfiguration, clock: clock, uploader: uploader, heartbeat: heartbeats,
                store: store,
                directory: directory, iosMajor: configuration.ios,
                appInfo: AppInfo(configuration.effectivePlist),
                seed: configuration.seed)
        } catch {
            backend.notes.append("the shell could not start: \(error)")
            return
        }
        process = (tracker, clock)
        var options: [UIApplication.LaunchOptionsKey: Any] = [:]
        if [.significantChange, .visit, .regionExit].contains(reason) { options[.location] = true }
        tracker.didFinishLaunching(options.isEmpty ? nil : options)
        backend.launchFinished()
        if (!started || reason == .user) && (loggedIn || !configuration.scenario.loggedIn) {
            // The day begins with the user opening the app and switching tracking on; the
            // simulated user wants tracking whenever they open the app (after the server ended
            // the session, the app shows its login screen instead, until the user logs in).
            started = true
            // The example app's flow: turning tracking on asks for notification permission too,
            // under a line saying the app warns when tracking stops (iOS prompts only once).
            tracker.requestNoticePermission()
            tracker.start()
        }
        wake(reason)
    }

    /// What iOS runs in the app for a background launch or wake besides the launch itself.
    @MainActor private func wake(_ reason: LaunchReason) {
        guard let tracker = process?.tracker else { return }
        switch reason {
        case .backgroundRefresh: runTask(BackgroundTaskIdentifiers.refresh)
        case .backgroundProcessing: runTask(BackgroundTaskIdentifiers.processing)
        case .backgroundURLSession:
            tracker.handleEventsForBackgroundURLSession(
                identifier: tracker.configuration.uploadSessionIdentifier, completionHandler: {})
        case .silentPush:
            // The app delegate's `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`.
            tracker.didReceiveRemoteNotification { [backend] result in
                backend.runtime.append(.remoteNotificationCompleted(result: "\(result)"))
            }
        case .user, .significantChange, .visit, .regionExit:
            break  // a location event follows through the delegate
        }
    }

    @MainActor private func runTask(_ identifier: String) {
        guard let handler = backend.launchHandlers[identifier] else {
            backend.notes.append("BGTask \(identifier) launched, but the app registered no handler")
            return
        }
        let task = BGTask(shadowIdentifier: identifier)
        backend.taskLaunched(task)
        handler(task)
    }

    /// A fix goes to the delegate of the manager that runs the service that produced it.
    @MainActor private func deliver(_ fix: LocationFix, source: FixSource) {
        guard let manager = backend.manager(for: source), let delegate = manager.delegate else {
            backend.notes.append("a \(source.rawValue) fix arrived, but no location manager of the app asked for it")
            return
        }
        switch source {
        case .visit:
            let arrival = Date(timeIntervalSince1970: fix.timestamp.seconds)
            delegate.locationManager(
                manager,
                didVisit: CLVisit(
                    shadowCoordinate: CLLocationCoordinate2D(latitude: fix.latitude, longitude: fix.longitude),
                    horizontalAccuracy: fix.horizontalAccuracy, arrival: arrival, departure: .distantFuture))
        case .regionExit:
            guard let region = backend.regionLeft() else { return }
            delegate.locationManager(manager, didExitRegion: region)
        case .standardUpdates, .oneShot, .significantChange:
            let location = CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: fix.latitude, longitude: fix.longitude),
                altitude: fix.altitude ?? 0, horizontalAccuracy: fix.horizontalAccuracy,
                verticalAccuracy: fix.altitude == nil ? -1 : fix.verticalAccuracy ?? 10, course: fix.course ?? -1,
                speed: fix.speed ?? -1,
                timestamp: Date(timeIntervalSince1970: fix.timestamp.seconds))
            delegate.locationManager(manager, didUpdateLocations: [location])
        }
    }

    /// A `requestLocation()` without a fix: the asking manager's delegate hears the error.
    @MainActor private func fail(_ failure: LocationFailure) {
        guard let manager = backend.manager(for: .oneShot), let delegate = manager.delegate else {
            backend.notes.append("a location error (\(failure)) arrived, but no location manager of the app asked")
            return
        }
        let code: CLError.Code = failure == .denied ? .denied : .locationUnknown
        delegate.locationManager(manager, didFailWithError: CLError(code))
    }

    /// Changed settings reach the shell as iOS tells apps: the authorisation callback on every
    /// manager, and what the power and battery notifications' observers do.
    @MainActor private func settingsChanged(to environment: SystemSettings) {
        let previous = lastEnvironment
        lastEnvironment = environment
        if previous.authorization != environment.authorization
            || previous.preciseLocation != environment.preciseLocation
            || previous.locationServicesEnabled != environment.locationServicesEnabled
        {
            for manager in backend.managers { manager.delegate?.locationManagerDidChangeAuthorization(manager) }
        }
        if previous.lowPowerMode != environment.lowPowerMode || previous.batteryLevel != environment.batteryLevel
            || previous.charging != environment.charging
            || previous.backgroundRefreshAvailable != environment.backgroundRefreshAvailable
        {
            // What the power-state, battery and Background App Refresh observers do.
            process?.tracker.systemSettingsChanged()
        }
    }

    /// The samples the shell stored while handling the event, for the simulator's report: in the
    /// phone's store, or in its held store before the first unlock (each counted once, when
    /// first seen).
    @MainActor private func newSamples(precise: Bool) -> [LocationFix] {
        var samples: [Sample] = []
        if let tracker = process?.tracker, tracker.isWaitingForFirstUnlock {
            if held?.store.path != tracker.store.path { held = (tracker.store, 0, nil) }
            if var current = held {
                let changes = current.store.changeCount()
                if changes == nil || changes != current.changes,
                    let read = try? current.store.pending(afterSeq: current.lastSeq), let last = read.last
                {
                    if current.lastSeq == 0 {
                        backend.notes.append("store closed until the first unlock: samples held in a file of their own")
                    }
                    current.changes = changes
                    current.lastSeq = last.seq
                    heldSamples.formUnion(read.map(\.id))
                    samples += read
                }
                held = current
            }
        } else {
            held = nil
        }
        // Most events store nothing: the change count says so without reading the table.
        let changes = store.changeCount()
        if changes == nil || changes != changesSeen, let read = try? store.pending(afterSeq: lastSeq),
            let last = read.last
        {
            changesSeen = changes
            lastSeq = last.seq
            // Held samples moved in at the first unlock were counted when first stored.
            let fresh = read.filter { heldSamples.remove($0.id) == nil }
            if fresh.count < read.count {
                backend.notes.append(
                    "\(read.count - fresh.count) sample(s) taken before the first unlock moved into the store")
            }
            samples += fresh
        }
        return samples.map { sample in
            LocationFix(sample.values, isApproximate: !precise)
        }
    }
}

/// The shell's clock in the simulator: simulated time, and timers the simulator fires.
@MainActor
final class HostClock: ShellClock {
    var now: Instant
    private var timers: [TimerID: @MainActor @Sendable () -> Void] = [:]
    private let system: SimulatedSystem

    init(now: Instant, system: SimulatedSystem) {
        self.now = now
        self.system = system
    }

    func schedule(_ id: TimerID, at instant: Instant, _ fire: @escaping @MainActor @Sendable () -> Void) {
        timers[id] = fire
        system.effects.append(.timer(.schedule(id, at: instant)))
    }

    func cancel(_ id: TimerID) {
        guard timers.removeValue(forKey: id) != nil else { return }
        system.effects.append(.timer(.cancel(id)))
    }

    func fire(_ id: TimerID) {
        timers.removeValue(forKey: id)?()
    }

    /// The work runs on a thread of its own and the result comes back at once: simulated time
    /// does not pass while the shell waits for it.
    func offMain(_ work: @escaping @Sendable () -> Bool, then: @escaping @MainActor @Sendable (Bool) -> Void) {
        then(onAnotherThread(work))
    }
}

/// The background `URLSession` while the simulator hosts the shell: each upload is read back
/// from its file (gzip JSON, as it would go over the wire) and handed to the simulator, which
/// sends it as the system would and later delivers the server's answer.
@MainActor
final class SimulatedUploader: BackgroundUploader {
    private var events: (@MainActor (UploadEvent) -> Void)?
    var system: HostedSystemState?
    /// Uploads started while handling the current event.
    var started: [HostedUpload] = []
    var unreadable: [(description: String, reason: String)] = []

    func activate(_ events: @escaping @MainActor (UploadEvent) -> Void) {
        self.events = events
    }

    func upload(_ request: URLRequest, fromFile file: URL, description: String) {
        do {
            let batch = try JSONDecoder().decode(
                BatchRequest.self, from: Gzip.decompress(Data(contentsOf: file)))
            started.append(
                HostedUpload(
                    description: description, samples: try batch.samples.map { try $0.sample() },
                    gaps: batch.gaps ?? [], device: batch.device))
        } catch {
            // The session would send it and the server answer 400; the simulator reports it.
            unreadable.append((description, "\(file.lastPathComponent): \(error)"))
        }
    }

    func inFlight(_ completion: @escaping @MainActor (Set<String>) -> Void) {
        completion((system?.uploadsInFlight ?? []).union(started.map(\.description)))
    }

    func deliver(_ event: UploadEvent) {
        events?(event)
    }
}

/// The shell's heartbeat while the simulator hosts it: each beat is a data task the simulator
/// answers (the server model, or a real server through the demo's peer) while the app runs;
/// the answer reaches the completion handler as `URLSession.shared`'s would.
@MainActor
final class SimulatedHeartbeatTransport: HeartbeatTransport {
    private var completions: [Int: @MainActor @Sendable (HeartbeatMachine.Response) -> Void] = [:]
    private var lastID = 0
    /// Beats sent while handling the current event.
    var started: [HostedDataTask] = []

    func send(_ completion: @escaping @MainActor @Sendable (HeartbeatMachine.Response) -> Void) {
        lastID += 1
        completions[lastID] = completion
        started.append(HostedDataTask(id: lastID, request: HostedDataTask.heartbeat))
    }

    func finish(_ id: Int, answer: HostedAnswer) {
        completions.removeValue(forKey: id)?(
            HeartbeatMachine.Response(status: answer.status, body: answer.body, failed: answer.error != nil))
    }

    /// The process ended: no completion handler of its will run.
    func processEnded() {
        completions = [:]
    }
}

extension AppInfo {
    /// What the shell reads of the simulated app's plist: the one the simulator enforces.
    package init(_ plist: InfoPlist) {
        self.init(
            backgroundModes: plist.backgroundModes, permittedTaskIdentifiers: plist.permittedTaskIdentifiers,
            hasMotionUsage: plist.hasMotionUsage)
    }
}
