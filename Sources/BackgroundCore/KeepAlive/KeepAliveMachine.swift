/// Runs one keep-alive strategy: `handle(event, at:)` in, actions out, no I/O.
///
/// The machine does what every strategy shares, so no strategy can get it wrong:
/// - a sampling slot timer: when a slot opens and the app is running, one fix is requested;
/// - every delivered fix goes through the `SamplingMachine` (one accepted sample per slot, and
///   one more where a strategy asked for a departure fix: `StrategyContext.requestDepartureFix`);
/// - expiring tasks are ended in the same step the system reports the expiry;
/// - notices when location services are off, denied or When-In-Use only;
/// - the dead-man notice: every accepted sample moves one pending local notification to
///   ``deadManLead`` later, so if the app dies or location stops, the user hears of it;
/// - `.stop` ends every task and service and cancels the dead-man notice.
///
/// ```swift
/// var machine = KeepAliveMachine(strategy: .adaptive, environment: .init(iosMajor: 17))
/// let actions = machine.handle(.launched(.user), at: now)
/// ```
public struct KeepAliveMachine: Sendable {
    public static let sampleTimer: TimerID = "sample"
    /// Asks again for a slot's fix after one came back too inaccurate (no GPS underground or deep
    /// indoors: a Wi-Fi fix may come a few seconds later, near a station).
    public static let retryTimer: TimerID = "sample-retry"
    public static let retryDelay: Duration = .seconds(30)
    public static let retriesPerSlot = 3

    /// Tracking, or stopped for good (`.stop`: only expiring tasks are still ended).
    private enum State: Sendable {
        /// `deadManDue`: when the dead-man notice last scheduled is (or was) due; `nil` before the
        /// first sample and after the user opened the app. `retried`: the slot whose fix was
        /// retried, and how many times.
        case tracking(deadManDue: Instant?, retried: (slot: Int64, count: Int)?)
        case stopped
    }

    public private(set) var context: StrategyContext
    private var strategy: any KeepAliveStrategy
    private var state = State.tracking(deadManDue: nil, retried: nil)

    /// Whether `.stop` ended tracking.
    public var isStopped: Bool {
        if case .stopped = state { return true }
        return false
    }

    /// When the dead-man notice last scheduled is (or was) due; `nil` before the first sample,
    /// after the user opened the app, and once stopped.
    public var deadManDue: Instant? {
        if case .tracking(let due, _) = state { return due }
        return nil
    }

    public init(
        strategy name: StrategyName,
        environment: KeepAliveEnvironment,
        sampling: SamplingMachine.Configuration = .init(),
        at now: Instant = .epoch
    ) {
        self.strategy = name.makeStrategy()
        self.context = StrategyContext(
            now: now, environment: environment, sampling: SamplingMachine(configuration: sampling))
    }

    public var strategyName: StrategyName { strategy.name }

    /// How long after an accepted sample the dead-man notice is due: the next sample is due one
    /// interval later, and the notice waits four more intervals (at least 10 min) so a slot
    /// missed to a late fix or a short gap between wakes does not alarm anyone.
    public var deadManLead: Duration {
        max(context.sampling.configuration.interval * 5, .seconds(600))
    }

    /// The text of the dead-man notice, with the last sample's time as the shell formats it.
    public static func deadManMessage(lastSample time: String) -> String {
        "Tracking stopped at \(time) — open the app to resume."
    }

    /// Tells a freshly launched machine when the store's newest sample was taken, so the relaunch
    /// does not sample the same slot twice.
    public mutating func restoreLastSample(at instant: Instant) {
        context.sampling.restore(lastSampleAt: instant)
    }

    /// Tells a freshly launched machine when the dead-man notice it last scheduled is or was
    /// due (the shell asks the notification centre), so a relaunch after an outage does not
    /// re-arm a notice the user has already been shown.
    public mutating func restoreDeadManNotice(due: Instant?) {
        setDeadManDue(due)
    }

    private mutating func setDeadManDue(_ due: Instant?) {
        guard case .tracking(_, let retried) = state else { return }
        state = .tracking(deadManDue: due, retried: retried)
    }
    public var ledger: BackgroundTaskLedger { context.ledger }

    public mutating func handle(_ event: KeepAliveEvent, at now: Instant) -> [KeepAliveMachine.Action] {
        context.now = now
        if case .stopped = state {
            if case .taskExpiring(let token) = event {
                return context.ledger.expire(token, at: now).map(KeepAliveMachine.Action.task)
            }
            return []
        }
        var effects: [KeepAliveMachine.Action] = []
        switch event {
        case .launched(let reason):
            context.isForeground = reason == .user
            if reason == .user { setDeadManDue(nil) }  // the user opened the app: arm afresh
            context.wakeReason = reason == .user ? nil : reason
            _ = context.sampling.handle(.start, at: now)
            // Tell the user at a launch they made; background relaunches do not repeat it.
            if reason == .user { effects += permissionNotices(for: context.environment, previous: nil) }
            effects += slotOpened()
        case .woke(let reason):
            context.wakeReason = reason
            effects += slotOpened()
        case .enteredForeground:
            context.isForeground = true
            setDeadManDue(nil)
            context.wakeReason = nil
            effects += slotOpened()
        case .enteredBackground:
            context.isForeground = false
        case .timerFired(let id) where id == Self.sampleTimer:
            return slotOpened()
        case .timerFired(let id) where id == Self.retryTimer:
            guard context.sampling.needsFix(at: now), let accuracy = strategy.slotFixAccuracy(in: context) else {
                return []
            }
            return [.requestFix(accuracy)]
        case .timerFired:
            break
        case .taskExpiring(let token):
            effects += context.ledger.expire(token, at: now).map(KeepAliveMachine.Action.task)
        case .taskRefused(let token):
            context.ledger.beginRefused(token)
        case .locationFix(let fix, let source) where strategy.samplesFixes(from: source):
            effects += sample(fix, source: source)
        case .locationFix:
            break
        case .environmentChanged(let environment):
            let previous = context.environment
            context.environment = environment
            effects += permissionNotices(for: environment, previous: previous)
        case .audioInterruption, .motionActivity:
            break
        case .stop:
            state = .stopped
            return context.endAllTasks() + [
                .cancelTimer(Self.sampleTimer), .cancelTimer(Self.retryTimer), .stopLocationUpdates,
                .stopSignificantChanges, .stopVisits, .stopMotionUpdates,
                .stopRegionMonitoring, .endActivitySession, .stopAudio, .cancelDeadManNotice,
                .log("keep-alive stopped"),
            ]
        }
        return effects + strategy.handle(event, context: &context)
    }

    /// A slot may have opened: request its fix if it still needs one, and time the next slot.
    private func slotOpened() -> [KeepAliveMachine.Action] {
        var effects: [KeepAliveMachine.Action] = []
        if context.sampling.needsFix(at: context.now), let accuracy = strategy.slotFixAccuracy(in: context) {
            effects.append(.requestFix(accuracy))
        }
        effects.append(.scheduleTimer(Self.sampleTimer, at: context.sampling.nextSlot(after: context.now)))
        return effects
    }

    private mutating func sample(_ fix: LocationFix, source: FixSource) -> [KeepAliveMachine.Action] {
        let state: SampleAppState = context.isForeground ? .foreground : .background
        let departure = source == .oneShot && context.takeDepartureRequest(for: fix)
        let decisions = context.sampling.handle(
            departure ? .departure(fix, state: state) : .fix(fix, trigger: trigger(for: source), state: state),
            at: context.now)
        var effects: [KeepAliveMachine.Action] = decisions.map {
            switch $0 {
            case .accept(let accepted):
                context.lastAcceptedFix = accepted.fix
                // The wake's reason labels the wake's own fix; later ones, taken while something
                // else keeps the app running, are the slot timer's.
                if accepted.trigger == .refresh || accepted.trigger == .push { context.wakeReason = nil }
                return .recordSample(accepted)
            case .reject(let fix, let reason):
                return .rejectFix(fix, reason)
            }
        }
        if source == .oneShot, decisions.contains(where: Self.isTooInaccurate) { effects += retrySlotFix() }
        let recorded = effects.contains { if case .recordSample = $0 { true } else { false } }
        // One notice per outage: once it has fired, a sample taken in a brief background wake
        // does not re-arm it (the app would notify every wake of a day it cannot track); the
        // user opening the app does.
        let fired = deadManDue.map { context.now >= $0 } ?? false
        if recorded, !fired || context.isForeground, let accepted = context.lastAcceptedFix {
            setDeadManDue(context.now + deadManLead)
            effects.append(.scheduleDeadManNotice(at: context.now + deadManLead, lastSample: accepted.timestamp))
        }
        return effects
    }

    private static func isTooInaccurate(_ decision: SamplingMachine.Action) -> Bool {
        if case .reject(_, .tooInaccurate) = decision { return true }
        return false
    }

    /// The slot's one-shot fix was too coarse: ask again shortly, a few times per slot.
    private mutating func retrySlotFix() -> [KeepAliveMachine.Action] {
        guard case .tracking(let deadManDue, let retried) = state else { return [] }
        let slot = context.sampling.slot(containing: context.now)
        let count = retried.map { $0.slot == slot ? $0.count : 0 } ?? 0
        guard count < Self.retriesPerSlot, context.sampling.needsFix(at: context.now) else { return [] }
        state = .tracking(deadManDue: deadManDue, retried: (slot, count + 1))
        return [.scheduleTimer(Self.retryTimer, at: context.now + Self.retryDelay)]
    }

    private func trigger(for source: FixSource) -> SampleTrigger {
        switch source {
        case .significantChange: return .significant
        case .visit: return .visit
        case .regionExit: return .region
        case .standardUpdates, .oneShot:
            switch context.wakeReason {
            case .backgroundRefresh?, .backgroundProcessing?: return .refresh
            case .silentPush?: return .push
            default: return .timer
            }
        }
    }

    private func permissionNotices(for environment: KeepAliveEnvironment, previous: KeepAliveEnvironment?)
        -> [KeepAliveMachine.Action]
    {
        var notices: [KeepAliveMachine.Action] = []
        if !environment.locationServicesEnabled, previous?.locationServicesEnabled ?? true {
            notices.append(.notify(.locationServicesOff))
        }
        // Once per change to approximate (and at a launch the user made while it is off).
        if !environment.preciseLocation, previous?.preciseLocation ?? true {
            notices.append(.notify(.approximateLocation))
        }
        if environment.authorization != previous?.authorization {
            switch environment.authorization {
            case .denied: notices.append(.notify(.locationDenied))
            case .whenInUse where !strategy.tracksInBackground(whenInUse: environment):
                // Only where tracking really stops in the background.
                notices.append(.notify(.locationWhenInUseOnly))
            case .whenInUse: break
            case .notDetermined where previous.map { $0.authorization != .notDetermined } ?? false:
                // A granted permission became "not determined": Allow Once ended with the use.
                notices.append(.notify(.locationPermissionExpired))
            case .always, .notDetermined: break
            }
        }
        return notices
    }
}
