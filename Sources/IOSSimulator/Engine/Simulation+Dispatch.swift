import BackgroundCore
import Foundation
import LocationLog

extension Simulation {
    /// Hands the app's code one event, as the callback iOS would make, and carries out what it
    /// asked of the system, checking the invariants. Refuses (and counts a violation) if the app is
    /// not allowed to run code.
    mutating func deliver(_ event: AppCallback) {
        // Provisional Always meets its confirmation prompt before the fix reaches the app.
        if case .locationFix = event, isRunning { locationUsedInBackground() }
        guard isRunning else {
            report.violation(now, "code would run while the app is suspended or terminated: \(event)")
            return
        }
        energy.add(
            .cpu, milliwatts: profile[.cpuPower], seconds: profile[.cpuTimePerEvent],
            restingOn: [.cpuPower, .cpuTimePerEvent])
        var result = hosted.handle(event, system: hostedSystemState)
        if configuration.faults.contains(.neverEndTasks) {
            result.effects.removeAll { if case .uiKit(.endBackgroundTask) = $0 { true } else { false } }
        }
        if case .taskExpiring(let token) = event, backgroundTime.openTasks.contains(token),
            !result.effects.contains(.uiKit(.endBackgroundTask(id: token)))
        {
            report.violation(now, "expiration handler of \(token) returned without ending it")
        }
        carryOut(result)
    }

    /// Carries out what the app asked of the system in order (until a call ends the process),
    /// takes in what it stored and started, and checks the ledger against the system.
    private mutating func carryOut(_ result: HostedResult) {
        let generation = timeline.generation
        // The prompt is answered before the notices the app adds after asking.
        answerNotificationRequests(result.runtime)
        for effect in result.effects {
            guard generation == timeline.generation else { break }  // an effect ended the process
            apply(effect)
        }
        absorb(result)
        applyRuntime(result.runtime)
        checkLedgerAgreement()
        answer(result.dataTasks)
    }

    /// Routes one call to the subsystem that implements its framework.
    private mutating func apply(_ call: SystemCall) {
        switch call {
        case .uiKit(let call): applyUIKit(call)
        case .coreLocation(let call): applyCoreLocation(call)
        case .coreMotion(.startActivityUpdates): startMotionUpdates()
        case .coreMotion(.stopActivityUpdates): motion.stop()
        case .avfAudio(.play(let duration)): playSilentAudio(duration)
        case .avfAudio(.stop): audio.stop()
        case .backgroundTasks(.submit(.refresh(let earliest))):
            // `submit` was judged by the app's backend (register and submit rules) already.
            scheduleRefresh(earliest: earliest)
        case .backgroundTasks(.submit(.processing(let earliest))):
            // One pending request per identifier: a new submission replaces the old one.
            if profile[.processingRuntime] > 0 { scheduler.requestProcessing(earliest: earliest) }
        case .userNotifications(let call): applyUserNotifications(call)
        case .timer(.schedule(let id, let at)): scheduleTimer(id, at: at)
        case .timer(.cancel(let id)): cancelTimer(id)
        case .note(let message): report.note(now, message)
        }
    }

    /// Core Location: the services, the region limit, Precise Location and the activity session's rules.
    private mutating func applyCoreLocation(_ call: SystemCall.CoreLocation) {
        switch call {
        case .startUpdatingLocation(let request):
            guard checkBackgroundLocation(request) else { return }
            startUpdates(request)
        case .stopUpdatingLocation: location.stopUpdates()
        case .requestLocation(let accuracy): requestFix(accuracy)
        case .startMonitoringSignificantLocationChanges: location.startSignificantChanges(at: now, place: position)
        case .stopMonitoringSignificantLocationChanges: location.stopSignificantChanges()
        case .startMonitoringVisits: location.setVisits(profile[.visitMinimumDwell] > 0)
        case .stopMonitoringVisits: location.setVisits(false)
        case .startMonitoring(let latitude, let longitude, let radius):
            // With reduced accuracy "your app can't use region monitoring" ([AD-CLM] accuracyAuthorization).
            guard environment.preciseLocation else {
                location.stopRegionMonitoring()
                report.note(now, "region monitoring refused: Precise Location is off")
                return
            }
            // "No more than 20 regions" per app, the host app's own geofences included ([LPG-RM]):
            // beyond them `monitoringDidFailFor` reports regionMonitoringFailure.
            let limit = Int(profile[.regionLimit])
            guard configuration.hostAppRegions < limit else {
                location.stopRegionMonitoring()
                report.regionFailures += 1
                report.note(
                    now,
                    "region monitoring failed (regionMonitoringFailure): the app already monitors "
                        + "\(configuration.hostAppRegions) regions of its own, the limit is \(limit)")
                return
            }
            _ = location.monitorRegion(center: Coordinate(latitude: latitude, longitude: longitude), radius: radius)
        case .stopMonitoring:
            location.stopRegionMonitoring()
        case .startBackgroundActivitySession:
            // Created in the foreground; after a termination only iOS 18's CLServiceSession lets a
            // background launch recreate it (docs/ios-policy.md §Location: "create in foreground; after termination
            // recreate (with CLServiceSession, iOS 18) immediately on background launch").
            let allowed =
                profile.flag(.activitySessionAvailable)
                && (process?.state == .foreground || (location.activitySessionAtExit && configuration.ios >= 18))
            if allowed {
                location.beginActivitySession()
            } else if profile.flag(.activitySessionAvailable), profile.flag(.contractActivitySessionForeground),
                location.warnsOfBackgroundSession(generation: timeline.generation)
            {
                // Apple documents no failure, only that it must be created in the foreground:
                // counted once per process as a warning.
                report.warning(
                    now,
                    "CLBackgroundActivitySession created in the background has no effect "
                        + "(create it in the foreground, [AD-CLBAS])")
            }
        case .invalidateBackgroundActivitySession: location.endActivitySession()
        }
    }

    /// UserNotifications: the notice shown now, and the one pending dead-man notice.
    private mutating func applyUserNotifications(_ call: SystemCall.UserNotifications) {
        switch call {
        case .add(let kind): notify(kind: kind)
        case .addDeadManNotice(let due, let lastSample):
            let version = notifications.schedule(due: max(due, now), lastSample: lastSample)
            queue.push(.deadManNoticeDue(version: version), at: max(due, now))
        case .removePendingDeadManNotice: notifications.cancel()
        }
    }

    /// Hands a hosted app the answer to its upload, as the background session does once the app
    /// runs, and carries out what it does then (it deletes exactly the acknowledged samples).
    mutating func deliverUploadAnswer(_ description: String, outcome: UploadOutcome) {
        guard
            runHosted(
                "an upload's answer", { $0.uploadFinished(description, answer: HostedAnswer(outcome), system: $1) })
        else { return }
        if case .acknowledged = outcome { report.uploads += 1 }
    }

    /// Runs hosted app code outside a keep-alive event (an upload's answer, new credentials) with
    /// the same checks; `false` (and a violation) if the app is not running.
    mutating func runHosted(
        _ what: String, _ call: (any HostedApp, HostedSystemState) -> HostedResult
    ) -> Bool {
        guard isRunning else {
            report.violation(now, "\(what) would reach an app that is not running")
            return false
        }
        energy.add(
            .cpu, milliwatts: profile[.cpuPower], seconds: profile[.cpuTimePerEvent],
            restingOn: [.cpuPower, .cpuTimePerEvent])
        carryOut(call(hosted, hostedSystemState))
        return true
    }

    /// The samples a hosted app stored and the uploads it started.
    private mutating func absorb(_ result: HostedResult) {
        for fix in result.recorded {
            if fix.isApproximate { report.approximateSamples += 1 }
            noteSample(fix)
        }
        for upload in result.uploads { handOffHostedUpload(upload) }
    }

    /// What the system answers hosted app code at once, as of now.
    var hostedSystemState: HostedSystemState {
        let inBackground = process?.state != .foreground
        let refuses = inBackground && backgroundTime.refusesNewTasks(at: now, lead: profile.duration(.expiryLead))
        var state = HostedSystemState(
            now: now, isForeground: !inBackground, backgroundTimeRemaining: backgroundTimeRemaining,
            refusesNewTasks: refuses, environment: environment, hostAppRegions: configuration.hostAppRegions,
            uploadsInFlight: urlSession.inFlight,
            notifications: notifications.authorization)
        state.protectedDataAvailable = timeline.isUnlocked
        return state
    }

    /// The notification centre delivers the pending dead-man notice; no app code runs.
    mutating func deliverDeadManNotice(version: Int) {
        let withheld = notifications.withheld.count
        guard let notice = notifications.takeDue(version: version) else {
            if notifications.withheld.count > withheld {
                report.notificationsNotShown[DeadManNotice.kind, default: 0] += 1
                report.note(
                    now,
                    "notification not shown: \(DeadManNotice.kind) came due with notifications "
                        + notifications.authorization.rawValue)
            }
            return
        }
        let state: String
        switch process?.state {
        case nil: state = "terminated"
        case .suspended?: state = "suspended"
        case .background?: state = "background"
        case .foreground?: state = "foreground"
        }
        report.notifications[DeadManNotice.kind, default: 0] += 1
        report.deadManNotices.append(
            DeadManNotice(
                firedAt: report.clock(now), lastSample: report.clock(notice.lastSample), appState: state))
        report.note(
            now, "notification: \(DeadManNotice.kind) (last sample \(report.clock(notice.lastSample)), app \(state))")
    }

    /// UIKit's background tasks: `.invalid` once the stint's time is all but spent, the
    /// assertion limit, and an end for a task the system does not hold.
    private mutating func applyUIKit(_ call: SystemCall.UIKit) {
        switch call {
        case .beginBackgroundTask(let token, let name):
            let inBackground = process?.state != .foreground
            if inBackground, backgroundTime.refusesNewTasks(at: now, lead: profile.duration(.expiryLead)) {
                report.note(now, "beginBackgroundTask(\(name)) → .invalid: no background time left")
                deliver(.taskRefused(token))
                return
            }
            let open = backgroundTime.begin(token)
            report.note(now, "begin \(token) \(name)")
            if open > Int(profile[.maxTaskAssertions]) { terminate("assertion-limit") }
        case .endBackgroundTask(let token):
            if !backgroundTime.end(token) {
                report.violation(now, "endBackgroundTask(\(token)) for a task the system does not hold")
            } else {
                report.note(now, "end \(token)")
            }
        }
    }

    /// The app's ledger and the system's assertions must name the same open tasks.
    private mutating func checkLedgerAgreement() {
        guard process != nil, !configuration.faults.contains(.neverEndTasks) else { return }
        let ledgerOpen = Set(hosted.ledgerOpenTasks)
        if ledgerOpen != backgroundTime.openTasks {
            report.violation(
                now, "ledger has \(ledgerOpen.sorted()) open, the system holds \(backgroundTime.openTasks.sorted())")
        }
    }

    // MARK: Timers

    private mutating func scheduleTimer(_ id: TimerID, at time: Instant) {
        let version = timers.schedule(id)
        queue.push(.appTimer(id, version: version), at: max(time, now))
    }

    /// A timer fires only in a running app; in a suspended one it waits, as a GCD timer does.
    mutating func fireTimer(_ id: TimerID, version: Int) {
        guard process != nil, timers.isCurrent(id, version: version) else { return }
        guard isRunning else {
            timers.cameDueWhileSuspended(id)
            return
        }
        timers.fired(id)
        deliver(.timerFired(id))
        afterAppCode()
    }

    private mutating func cancelTimer(_ id: TimerID) {
        timers.cancel(id)
    }

    /// Fires the timers that came due while the app was suspended.
    mutating func resumeTimers() {
        for (id, version) in timers.takeOverdue() {
            queue.push(.appTimer(id, version: version), at: now)
        }
    }

    /// Work the app does whenever it runs: upload what is due, then maybe be suspended.
    mutating func afterAppCode() {
        updateDiagnostic()
        syncIfDue()
        settle()
    }

    // MARK: Data tasks

    /// Answers the app's in-process data tasks (its login heartbeat) at once, while it runs; a
    /// process that ended never hears them. Each request that finds a network wakes the radio.
    private mutating func answer(_ dataTasks: [HostedDataTask]) {
        for task in dataTasks where isRunning {
            let answer: HostedAnswer
            if !configuration.scenario.networkUp(at: scenarioSeconds) {
                answer = .noNetwork
            } else {
                energy.radioBurst(at: now, profile: profile)
                answer = answerOnline(task)
            }
            let outcome = answer.status.map { "answered \($0)" } ?? "failed: " + (answer.error ?? "no answer")
            report.note(now, "\(task.request) \(outcome)")
            _ = runHosted("a data task's answer") { $0.dataTaskFinished(task.id, answer: answer, system: $1) }
        }
    }

    /// The server's answer to a request that reached it: the peer's, or the model's.
    private func answerOnline(_ task: HostedDataTask) -> HostedAnswer {
        guard task.request == HostedDataTask.heartbeat else {
            return HostedAnswer((status: 404, body: Data(#"{"error":"no such route"}"#.utf8)))
        }
        if let peer = configuration.peer { return peer.heartbeat(at: now) }
        return .heartbeat(revoked: server.revoked, expiresAt: now + .seconds(3600))
    }

    /// A notice shown now, counted under `kind` (unless the app may not notify).
    mutating func notify(kind: String) {
        guard notifications.post(kind) else {
            noteNotificationRefused(kind)
            return
        }
        report.notifications[kind, default: 0] += 1
        report.note(now, "notification: \(kind)")
    }
}
