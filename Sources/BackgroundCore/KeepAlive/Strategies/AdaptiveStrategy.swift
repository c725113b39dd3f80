/// `adaptive`, ours: stay runnable cheaply, pay for GPS once per slot, and keep nets that bring
/// the app back when iOS ends it anyway.
///
/// - Location updates at three-kilometre accuracy (cell towers, no GPS) with a large distance
///   filter keep the process runnable without waking it often; they are not sampled.
/// - When a sampling slot opens, one fix at best accuracy (GPS for a few seconds) while the user
///   moves. While the samples say the user stays put (the last two within 100 m of each other and
///   no speed reported above walking pace), a Wi-Fi-accuracy fix instead: a GPS fix to learn that
///   one has not moved costs 280 mW for 5 s, a Wi-Fi fix 40 mW for 2 s (issue 8's energy goal).
///   A coarse update (500 m filter) means the user moved: the next slot uses GPS again.
/// - The motion coprocessor (`CMMotionActivityManager`, always on, no extra energy) tells it
///   sooner: a walking, running, cycling or automotive activity at medium or high confidence
///   means the user set off, so the next slot takes GPS (a fix with a speed) instead of a Wi-Fi
///   fix, and while it still says so the samples cannot make the strategy believe the user
///   stays put. When the coprocessor first says so (the user set off), one fix at once: the
///   departure, a sample beyond the slot's own (trigger `motion`, once per slot), so the trip
///   starts where the person left instead of at a straight line from the last still sample to
///   the next slot's fix (a 1.1 km ride round a corner measured 6 % short without it).
///   Without motion data (no coprocessor, Motion & Fitness denied, no
///   `NSMotionUsageDescription`) no activity arrives and the samples alone decide, as before.
///   Under Low Power Mode or a low battery, Wi-Fi accuracy always (accuracy degrades, coverage
///   does not).
/// - Relaunch nets for when the process dies: significant-change, visits and a "resume region"
///   around the last sample (all relaunch an Always app), a refresh task, silent pushes; and a
///   processing task (iOS 13+) that iOS runs on the charger, usually overnight, to upload the
///   backlog.
/// - When-In-Use on iOS 17+: a background activity session keeps the app "in use".
/// - Never silent audio, unless the app opted in (`allowsSilentAudio`) and nothing else can keep
///   a When-In-Use app running (before iOS 17).
struct AdaptiveStrategy: KeepAliveStrategy {
    static let resumeRegionRadius = 150.0
    static let refreshInterval: Duration = .seconds(900)
    /// A processing task is asked for no earlier than this after the app last ran one.
    static let processingInterval: Duration = .seconds(3600)

    /// Samples within this distance of the previous one, with no faster speed, mean "stationary".
    static let stationaryRadius = 100.0
    static let walkingSpeed = 1.0

    private var regionCenter: LocationFix?
    private var playingAudio = false
    /// The newest accepted fix seen, and whether the user seems to stay where they are.
    private var lastSample: LocationFix?
    private var stationary = false
    /// The coprocessor's newest activity says the user is on the move (`nil`: none reported).
    private var motionSaysMoving: Bool?

    var name: StrategyName { .adaptive }

    func slotFixAccuracy(in context: StrategyContext) -> LocationAccuracy? {
        context.environment.lowPowerMode || context.environment.batteryIsLow || stationary ? .hundredMeters : .best
    }

    func samplesFixes(from source: FixSource) -> Bool { source != .standardUpdates }

    /// Its coarse updates, started in use, keep a When-In-Use app running (with the indicator).
    func tracksInBackground(whenInUse environment: KeepAliveEnvironment) -> Bool { true }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action] {
        switch event {
        case .launched(let reason):
            regionCenter = nil
            stationary = false
            motionSaysMoving = nil
            var effects = startServices(context)
            if reason != .user { effects += refresh(context) + processing(context) }
            return effects
        case .woke(let reason):
            var effects = startServices(context)
            if reason == .backgroundRefresh { effects += refresh(context) }
            if reason == .backgroundProcessing { effects += processing(context) }
            return effects
        case .enteredBackground:
            return refresh(context) + processing(context) + audio(playing: true, context)
        case .enteredForeground:
            // Services (and the activity session, which only a foreground app may begin) are
            // started on every return to the screen, not only on launch and wake.
            return startServices(context) + audio(playing: false, context)
        case .environmentChanged(let environment) where context.isForeground && environment.authorization == .whenInUse:
            return startServices(context)
        case .audioInterruption(began: false):
            playingAudio = false
            return audio(playing: !context.isForeground, context)
        case .locationFix(_, let source):
            noteMovement(source: source, context)
            return moveResumeRegion(context)
        case .motionActivity(let activity):
            let setOff = activity.saysMoving && motionSaysMoving != true
            noteMotion(activity)
            guard setOff else { return [] }
            // No longer "stationary": the slot's accuracy, GPS unless the battery is to be saved.
            return context.requestDepartureFix(slotFixAccuracy(in: context) ?? .best)
        default:
            return []
        }
    }

    private func startServices(_ context: StrategyContext) -> [KeepAliveMachine.Action] {
        var effects: [KeepAliveMachine.Action] = []
        if context.environment.authorization == .whenInUse, context.environment.hasBackgroundActivitySession {
            effects.append(.beginActivitySession)
        }
        effects += [
            // Never paused: a pause would end a When-In-Use app's access until it is launched again.
            .startLocationUpdates(.init(accuracy: .threeKilometers, distanceFilter: 500, pausesAutomatically: false)),
            .startSignificantChanges,
            .startVisits,
            .startMotionUpdates,
        ]
        return effects
    }

    private func refresh(_ context: StrategyContext) -> [KeepAliveMachine.Action] {
        guard context.environment.hasBackgroundTasksFramework, context.environment.backgroundRefreshAvailable else {
            return []
        }
        return [.scheduleRefresh(earliest: context.now + Self.refreshInterval)]
    }

    private func processing(_ context: StrategyContext) -> [KeepAliveMachine.Action] {
        guard context.environment.hasBackgroundTasksFramework else { return [] }
        return [.scheduleProcessing(earliest: context.now + Self.processingInterval)]
    }

    private mutating func audio(playing: Bool, _ context: StrategyContext) -> [KeepAliveMachine.Action] {
        let needed =
            playing && context.environment.allowsSilentAudio && context.environment.authorization == .whenInUse
            && !context.environment.hasBackgroundActivitySession
        guard needed != playingAudio else { return [] }
        playingAudio = needed
        return [needed ? .playSilentAudio(nil) : .stopAudio]
    }

    /// A moving activity the coprocessor is sure enough of ends "stationary" at once; a
    /// stationary or unknown one, or a low-confidence guess, leaves the decision to the samples.
    private mutating func noteMotion(_ activity: MotionActivity) {
        motionSaysMoving = activity.saysMoving
        if activity.saysMoving { stationary = false }
    }

    /// Decides from the samples whether the user stays put, unless the coprocessor's newest
    /// activity says the user is moving.
    private mutating func noteMovement(source: FixSource, _ context: StrategyContext) {
        if source == .standardUpdates || source == .significantChange || source == .regionExit {
            // The coarse updates' 500 m filter, a significant change or leaving the resume
            // region: the user is on the move.
            stationary = false
            return
        }
        guard let fix = context.lastAcceptedFix, fix != lastSample else { return }
        defer { lastSample = fix }
        guard let previous = lastSample else { return }
        let moved = Haversine.distance(
            latitude1: previous.latitude, longitude1: previous.longitude, latitude2: fix.latitude,
            longitude2: fix.longitude)
        stationary = moved < Self.stationaryRadius && (fix.speed ?? 0) < Self.walkingSpeed && motionSaysMoving != true
    }

    private mutating func moveResumeRegion(_ context: StrategyContext) -> [KeepAliveMachine.Action] {
        guard let fix = context.lastAcceptedFix else { return [] }
        if let center = regionCenter,
            Haversine.distance(
                latitude1: center.latitude, longitude1: center.longitude, latitude2: fix.latitude,
                longitude2: fix.longitude) < Self.resumeRegionRadius / 2
        {
            return []
        }
        regionCenter = fix
        return [.monitorRegion(latitude: fix.latitude, longitude: fix.longitude, radius: Self.resumeRegionRadius)]
    }
}
