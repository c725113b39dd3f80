import BackgroundCore

extension Simulation {
    /// Starts the process, in the foreground for `.user`, else in the background for `reason`.
    mutating func launch(_ reason: LaunchReason) {
        let generation = timeline.processStarted()
        if reason != .user { report.relaunches += 1 }
        process = Process(state: reason == .user ? .foreground : .background, generation: generation)
        report.note(now, "launched (\(reason.rawValue))")
        heardDiagnostic = []
        if reason == .user {
            timeline.userOpened()
            urlSession.userOpened()
        } else {
            beginStint(runtime: wakeRuntime(for: reason))
            startRunning()
            openGrant(reason)
            startServiceSessionDeadline()
        }
        deliver(.launched(reason))
        guard timeline.generation == generation, process != nil else { return }  // it crashed while launching
        deliverExitReportsIfDue()
        settle()
    }

    /// Ends the process for `reason`; what the system keeps (monitoring, scheduled refresh) stays.
    mutating func terminate(_ reason: String) {
        guard process != nil else { return }
        countExit(reason)
        closeRunningInterval()
        report.kills[reason, default: 0] += 1
        report.note(now, "terminated: \(reason)")
        hosted.processTerminated()
        self.process = nil
        timeline.processEnded()
        backgroundTime.processEnded()
        timers.processEnded()
        location.processEnded()
        motion.processEnded()
        scheduler.processEnded()
        audio.processEnded()
        endOneTimePermissionIfUnused()
    }

    /// The user brings the app to the screen (launching it if needed).
    mutating func enterForeground(for seconds: Double) {
        // Sessions that overlap merge: the app leaves the screen when the last of them ends.
        queue.push(.leaveApp, at: timeline.extendForeground(until: now + .milliseconds(Int64(seconds * 1000))))
        guard var process else {
            launch(.user)
            return
        }
        timeline.userOpened()
        urlSession.userOpened()
        if process.state != .foreground {
            closeRunningInterval()
            process.state = .foreground
            self.process = process
            backgroundTime.enteredForeground()
            timeline.enteredForeground()
            report.note(now, "foreground")
            resumeTimers()
            resumeMotion()
            hearEnvironment()
            deliver(.enteredForeground)
            syncIfDue()
        }
    }

    /// The user leaves the app (home screen or lock).
    mutating func leaveForeground() {
        guard var process, process.state == .foreground else { return }
        process.state = .background
        self.process = process
        let handlerWindow = profile.duration(.enterBackgroundHandler)
        timeline.leftForeground(at: now, handlerWindow: handlerWindow)
        report.note(now, "background")
        beginStint(runtime: nil)
        queue.push(.settle, at: now + handlerWindow)
        queue.push(.settle, at: now + profile.duration(.whenInUseGrace))
        startRunning()
        deliver(.enteredBackground)
        settle()
    }

    /// A new background stint: the task budget starts now (it is the app's, not the tasks').
    mutating func beginStint(runtime: Duration?) {
        let stint = timeline.beginStint()
        let budget = profile.duration(.taskBudget) * (environment.lowPowerMode ? profile[.lowPowerTaskBudgetFactor] : 1)
        let deadline = now + budget
        backgroundTime.stintDeadline = deadline
        let lead = profile.duration(.expiryLead)
        queue.push(.expiryCall(stint: stint), at: max(now, deadline - lead))
        queue.push(.budgetDeadline(stint: stint), at: deadline)
        if let runtime {
            backgroundTime.wakeEnd = now + runtime
            queue.push(.settle, at: now + runtime)
        }
    }

    /// Wakes a suspended app in the background for `reason`, or delivers to a running one.
    mutating func wake(_ reason: LaunchReason) {
        guard var process else { return }
        switch process.state {
        case .suspended:
            process.state = .background
            self.process = process
            report.note(now, "woke (\(reason.rawValue))")
            beginStint(runtime: wakeRuntime(for: reason))
            startRunning()
            openGrant(reason)
            resumeTimers()
            resumeMotion()
            hearEnvironment()
            deliver(.woke(reason))
            deliverExitReportsIfDue()
        case .background:
            if let runtime = wakeRuntime(for: reason) {
                backgroundTime.extendWake(until: now + runtime)
                queue.push(.settle, at: now + runtime)
            }
            openGrant(reason)
            deliver(.woke(reason))
        case .foreground:
            // A silent push reaches an app on screen too ([AD-drn]); system wakes do not.
            guard reason == .silentPush else { return }
            openGrant(reason)
            deliver(.woke(reason))
        }
    }

    func wakeRuntime(for reason: LaunchReason) -> Duration? {
        switch reason {
        case .user: return nil
        case .significantChange, .visit, .regionExit: return profile.duration(.locationWakeRuntime)
        case .backgroundRefresh, .backgroundProcessing:
            // The BGTask's grant: until setTaskCompleted, at most its runtime (`openGrant`).
            return profile.flag(.contractTaskCompletion)
                ? nil : profile.duration(reason == .backgroundRefresh ? .refreshRuntime : .processingRuntime)
        case .silentPush:
            // The push's handler holds the app until it is called, at most the runtime (`openGrant`).
            return profile.flag(.contractPushCompletion) ? nil : profile.duration(.silentPushRuntime)
        case .backgroundURLSession: return profile.duration(.urlSessionRelaunchRuntime)
        }
    }

    /// Whether the process may run code now.
    var isRunning: Bool {
        guard let process else { return false }
        return process.state != .suspended
    }

    /// What can keep a background app from being suspended.
    struct Holders: OptionSet {
        let rawValue: UInt8
        static let enterBackgroundHandler = Holders(rawValue: 1 << 0)
        static let backgroundTask = Holders(rawValue: 1 << 1)
        static let locationUpdates = Holders(rawValue: 1 << 2)
        static let locationRequest = Holders(rawValue: 1 << 3)
        static let audio = Holders(rawValue: 1 << 4)
        static let wake = Holders(rawValue: 1 << 5)
        static let taskGrant = Holders(rawValue: 1 << 6)
        /// Background modes that keep the app running for as long as they last.
        static let backgroundModes: Holders = [.locationUpdates, .audio]
    }

    /// What keeps a background app from being suspended right now, if anything.
    var backgroundHolders: Holders {
        var holders: Holders = []
        if let handlerWindowEnd = timeline.handlerWindowEnd, now < handlerWindowEnd {
            holders.insert(.enterBackgroundHandler)
        }
        if backgroundTime.taskHolds(at: now) { holders.insert(.backgroundTask) }
        if location.runsBackgroundUpdates, locationDeliverable { holders.insert(.locationUpdates) }
        if location.oneShotPending, locationDeliverable { holders.insert(.locationRequest) }
        // Audio keeps an app running only with the `audio` mode ([APG-BG], docs/ios-policy.md §Audio).
        if audio.playing, plist.declares("audio") || !profile.flag(.contractModesGateWakes) { holders.insert(.audio) }
        if let wakeEnd = backgroundTime.wakeEnd, now < wakeEnd { holders.insert(.wake) }
        if scheduler.grant != nil || backgroundTime.pushHandler != nil { holders.insert(.taskGrant) }
        return holders
    }

    /// Suspends a background app that nothing holds any more.
    mutating func settle() {
        guard var process, process.state == .background else { return }
        if backgroundHolders.isEmpty {
            closeRunningInterval()
            process.state = .suspended
            self.process = process
            report.note(now, "suspended")
            endOneTimePermissionIfUnused()
        }
    }

    mutating func startRunning() {
        timeline.startRunning(at: now)
    }

    /// Ends the current background-running interval, if any, in the alive-time totals.
    mutating func closeRunningInterval() {
        guard let interval = timeline.closeRunningInterval(at: now, inForeground: process?.state == .foreground) else {
            return
        }
        report.backgroundAlive += interval.seconds
        if let sinceLeaving = interval.sinceLeavingForeground { report.aliveAfterBackground.append(sinceLeaving) }
    }
}
