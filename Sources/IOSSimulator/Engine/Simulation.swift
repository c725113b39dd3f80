import BackgroundCore
import LocationLog
import LocationLogTesting

/// The simulated iPhone: a deterministic discrete-event model of iOS background policy that runs
/// an app (the iOS shell, through Apple's API as `HostedApp`) through a scenario.
///
/// Every number comes from `PolicyTable` through the `IOSProfile`. At every step it checks the
/// ledger invariants (every task ended exactly once, expiries ended in the handler, the app's
/// ledger and the system's assertions agree) and it never lets a suspended or terminated app run
/// code: events for such an app either wake it the way iOS would, or wait.
///
/// ```swift
/// var simulation = Simulation(SimulationConfiguration(strategy: .adaptive, ios: 17, app: IOSShell()))
/// let report = simulation.run()
/// print(report.coverage, report.energyMwh)
/// ```
package struct Simulation: Sendable {
    enum Event: Sendable {
        case happening(Scenario.Happening)
        case leaveApp
        case callEnded
        case appTimer(TimerID, version: Int)
        case tick
        case locationDelivery(generation: Int)
        case oneShotFix(LocationAccuracy, generation: Int)
        /// The one-shot request numbered `request` ends in an error (refused, or timed out).
        case oneShotFailed(LocationFailure, request: Int)
        case expiryCall(stint: Int)
        case budgetDeadline(stint: Int)
        case settle
        case audioClipEnded(generation: Int, clip: Int)
        case regionExit(version: Int)
        case visit(place: Coordinate)
        case refreshLaunch(request: Int)
        case silentPush
        case deadManNoticeDue(version: Int)
        case grantExpiring(version: Int)
        case grantDeadline(version: Int)
        /// A silent push's 30 s are up: an app that has not called its handler is terminated.
        case pushHandlerDeadline(version: Int)
        case serviceSessionDeadline(generation: Int)
        /// The coprocessor detected a new activity (the latency after the change).
        case motionDetected(MotionActivity)
        /// Hand the running app's motion handler the activity it has not heard.
        case motionDelivery
        case end
    }

    /// The app process while it exists.
    struct Process: Sendable {
        enum State: Sendable { case foreground, background, suspended }
        var state: State
        var generation: Int
    }

    let configuration: SimulationConfiguration
    let profile: IOSProfile
    var queue = EventQueue<Event>()
    var now: Instant
    var rng: SeededRandom
    var environment: SystemSettings
    var energy: EnergyMeter
    var report: ReportBuilder

    // The process and what the system holds for it.
    var process: Process?
    /// Launches, kills, stints, time on screen and in the background, force quit, reboot.
    var timeline: ProcessTimeline
    /// UIKit's background execution: open background tasks, the stint's deadline, a wake's runtime.
    var backgroundTime = BackgroundTime()
    /// The app's timers (they fire only while it runs).
    var timers = AppTimers()

    /// Core Location: updates, one-shot requests, significant changes, visits, the region, sessions.
    var location = LocationServices()
    /// Core Motion: the coprocessor's reports and the app's activity updates.
    var motion = MotionCoprocessor()
    /// AVFAudio: the app's silent clip and the phone call that interrupts it.
    var audio = AudioSession()
    /// Core Location's authorisation, prompted as iOS prompts (docs/ios-policy.md §Contract).
    var permission: LocationPermission
    /// `BGTaskScheduler`: pending requests and the open task's grant (the app's backend enforces
    /// `register` and `submit`).
    var scheduler: TaskScheduler

    // System-level state that survives the process.
    /// The notification centre: the one pending dead-man notice.
    var notifications = NotificationCentre()
    /// The app's background URLSession: the batch the system holds for it, the rate limiter.
    var urlSession = BackgroundURLSession()
    var pushTimes: [Instant] = []
    var store: LocationStore
    /// The phone's disk, on a day whose storage fills or whose phone reboots (else the store is
    /// in memory).
    var disk: SimulatedDisk?
    var server = SimulatedServer()
    /// Samples pending or quarantined in a passed-in store before the run began.
    var carriedOver = 0
    var battery: Double
    var charging = false
    /// The app's code (the iOS shell): every event reaches it as the callback iOS would make.
    let hosted: any HostedApp
    var stationarySince: Instant?
    /// iOS 18: the location session diagnostic the running process last heard (docs/ios-policy.md §Causes).
    var heardDiagnostic: Set<StopCause> = []
    /// MetricKit: the open period's background exits and the reports not yet delivered.
    var exitReports = ExitReports()

    package init(_ configuration: SimulationConfiguration) {
        let profile = configuration.profile ?? IOSProfile.fallback
        self.configuration = configuration
        self.profile = profile
        self.now = configuration.scenario.start
        self.rng = SeededRandom(seed: configuration.seed)
        self.environment = SystemSettings(
            iosMajor: configuration.ios, authorization: .notDetermined,
            batteryLevel: configuration.scenario.battery.start,
            allowsSilentAudio: configuration.allowsSilentAudio)
        self.permission = LocationPermission(
            answers: configuration.answers, plist: configuration.effectivePlist, ios: configuration.ios)
        self.scheduler = TaskScheduler()
        self.energy = EnergyMeter(
            start: configuration.scenario.start,
            assumptions: Set(
                PolicyKey.allCases.filter {
                    PolicyTable.parameter($0, ios: configuration.ios)?.status == .assumption
                }))
        self.report = ReportBuilder(configuration: configuration)
        self.timeline = ProcessTimeline(start: configuration.scenario.start)
        if let store = configuration.store {
            self.store = store
        } else if configuration.scenario.happenings.contains(where: {
            switch $0.1 {
            case .storageFull, .reboot: true
            default: false
            }
        }) {
            // A day whose storage fills or whose phone reboots: the shell's store on a disk that
            // refuses to grow its files then, as iOS refuses a write on a full phone (SQLITE_FULL),
            // and closes them from the reboot to the first unlock (data protection).
            do {
                let disk = try SimulatedDisk()
                self.disk = disk
                self.store = try LocationStore.open(path: disk.storePath, now: configuration.scenario.start).0
            } catch {
                preconditionFailure("the simulated phone's disk could not be set up: \(error)")
            }
        } else {
            do {
                self.store = try LocationStore.inMemory()
            } catch {
                preconditionFailure("an in-memory SQLite database could not be opened: \(error)")
            }
        }
        // A store passed in may hold samples from an earlier run: they count as already accepted.
        self.carriedOver = ((try? store.pendingCount()) ?? 0) + ((try? store.quarantined().count) ?? 0)
        self.battery = configuration.scenario.battery.start
        self.hosted = configuration.app.makeApp(for: configuration, store: self.store)
        notifications.answer = configuration.notifications
        if !profile.flag(.contractPromptedAuthorization) {
            // Without the prompt rule the user's answer holds from the start, as before issue 21.
            environment.authorization = configuration.authorization
            permission.settingsChanged(to: configuration.authorization)
        }
    }

    var end: Instant { configuration.scenario.start + configuration.scenario.duration }
    var scenarioSeconds: Double { (now - configuration.scenario.start).seconds }

    /// Runs the whole scenario and returns what happened.
    package mutating func run() -> SimulationReport {
        schedule()
        while let (time, event) = queue.pop(), time <= end {
            report.events += 1
            accrueEnergy(until: time)
            now = time
            if case .end = event { break }
            configuration.peer?.advance(to: time)
            handle(event)
        }
        accrueEnergy(until: end)
        now = end
        closeRunningInterval()
        checkNothingLost()
        report.appStatus = hosted.statusLines
        report.fixesRejected = hosted.fixesRejected
        hosted.simulationEnded()
        return report.finish(energy: energy, end: end, authorization: environment.authorization)
    }

    private mutating func schedule() {
        let start = configuration.scenario.start
        for (at, happening) in configuration.scenario.happenings {
            queue.push(.happening(happening), at: start + .milliseconds(Int64(at * 1000)))
        }
        queue.push(.tick, at: start + .seconds(60))
        queue.push(.end, at: end)
        let dwell = profile.duration(.visitMinimumDwell)
        if dwell > .zero {
            for stay in configuration.scenario.track.stays(atLeast: dwell) {
                if stay.arrival > start { queue.push(.visit(place: stay.place), at: stay.arrival + dwell) }
                if stay.departure < end { queue.push(.visit(place: stay.place), at: stay.departure + .seconds(60)) }
            }
        }
        let motionLatency = profile.duration(.motionDetectionLatency)
        if motionLatency > .zero {
            for (at, activity) in MotionCoprocessor.reports(for: configuration.scenario.track, latency: motionLatency)
            where at < end {
                queue.push(.motionDetected(activity), at: max(start, at))
            }
        }
        if configuration.scenario.silentPushesPerHour > 0 {
            let gap = 3600 / configuration.scenario.silentPushesPerHour
            var at = gap
            while at < configuration.scenario.duration.seconds {
                queue.push(.silentPush, at: start + .milliseconds(Int64(at * 1000)))
                at += gap
            }
        }
        // The day starts with the app launched by the user, as after installing it.
        launch(.user)
        queue.push(.leaveApp, at: timeline.extendForeground(until: start + .seconds(60)))
    }

    mutating func handle(_ event: Event) {
        switch event {
        case .happening(let happening): happen(happening)
        case .leaveApp: if now >= timeline.foregroundUntil { leaveForeground() }
        case .callEnded: endCall()
        case .appTimer(let id, let version): fireTimer(id, version: version)
        case .deadManNoticeDue(let version): deliverDeadManNotice(version: version)
        case .tick: tick()
        case .locationDelivery(let generation): deliverStandardUpdate(generation: generation)
        case .oneShotFix(let accuracy, let generation): completeOneShot(accuracy, generation: generation)
        case .oneShotFailed(let failure, let request): failOneShot(failure, request: request)
        case .expiryCall(let stint): callExpiryHandlers(stint: stint)
        case .budgetDeadline(let stint): enforceBudget(stint: stint)
        case .settle: settle()
        case .audioClipEnded(let generation, let clip):
            if generation == timeline.generation { audio.clipEnded(clip) }
            settle()
        case .regionExit(let version): regionExited(version: version)
        case .visit(let place): visited(place)
        case .refreshLaunch(let request): launchRefresh(request: request)
        case .silentPush: silentPush()
        case .grantExpiring(let version): grantExpiring(version: version)
        case .grantDeadline(let version): grantDeadline(version: version)
        case .pushHandlerDeadline(let version): pushHandlerDeadline(version: version)
        case .serviceSessionDeadline(let generation): serviceSessionDeadline(generation: generation)
        case .motionDetected(let activity):
            motion.detected(activity)
            deliverMotion()
        case .motionDelivery: deliverMotion()
        case .end: break
        }
    }
}

extension IOSProfile {
    /// Used only if a configuration slipped past validation; the CLI rejects unknown versions.
    static let fallback: IOSProfile = {
        guard let profile = IOSProfile(major: 18) else { preconditionFailure("PolicyTable must cover iOS 18") }
        return profile
    }()
}
