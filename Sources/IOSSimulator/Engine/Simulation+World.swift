import BackgroundCore
import Foundation
import LocationLogTesting

extension Simulation {
    mutating func happen(_ happening: Scenario.Happening) {
        switch happening {
        case .openApp(let seconds):
            firstUnlock()  // opening the app unlocks the phone
            enterForeground(for: seconds)
        case .forceQuit:
            guard process != nil else { return }
            if isRunning {
                _ = runHosted("applicationWillTerminate") { $0.willTerminate(system: $1) }
            }
            terminate("force-quit")
            cancelBackgroundTransferOnForceQuit()
            timeline.forceQuitted(blocksLaunches: profile.flag(.forceQuitBlocksBackgroundLaunch))
        case .reboot:
            terminate("reboot")
            timeline.rebooted()
            disk?.lock()
            report.note(now, "the phone rebooted: the app's files stay closed until the user first unlocks it")
            // The user unlocks at the scenario's `unlock`, or after the table's delay.
            let seconds = (now - configuration.scenario.start).seconds
            let unlockAhead = configuration.scenario.happenings.contains { $0.at > seconds && $0.1 == .firstUnlock }
            if !unlockAhead { queue.push(.happening(.firstUnlock), at: now + profile.duration(.rebootUnlockDelay)) }
        case .firstUnlock:
            firstUnlock()
        case .phoneCall(let seconds):
            queue.push(.callEnded, at: now + .milliseconds(Int64(seconds * 1000)))
            guard audio.callBegan() else { return }
            if isRunning { deliver(.audioInterruption(began: true)) }
            settle()
        case .lowPowerMode(let on):
            environment.lowPowerMode = on
            environmentChanged()
        case .backgroundAppRefresh(let on):
            environment.backgroundRefreshAvailable = on
            environmentChanged()
        case .locationServices(let on):
            environment.locationServicesEnabled = on
            environmentChanged()
        case .authorization(let authorization):
            environment.authorization = authorization
            permission.settingsChanged(to: authorization)
            report.authorizationChanges.append("\(report.clock(now)) \(authorization.rawValue) (Settings)")
            environmentChanged()
        case .allowOnce:
            guard configuration.ios >= 13 else {
                report.note(now, "Allow Once ignored: iOS \(configuration.ios) has no one-time permission (13+)")
                return
            }
            environment.authorization = .whenInUse
            permission.settingsChanged(to: .whenInUse, once: true)
            report.authorizationChanges.append("\(report.clock(now)) when-in-use (Allow Once)")
            environmentChanged()
            endOneTimePermissionIfUnused()
        case .preciseLocation(let on):
            guard configuration.ios >= 14 else {
                report.note(now, "Precise Location switch ignored: iOS \(configuration.ios) has none (14+)")
                return
            }
            environment.preciseLocation = on
            location.forgetApproximatePlace()
            if !on { location.stopRegionMonitoring() }  // the system stops it for an approximate-only app
            environmentChanged()
        case .charging(let on):
            charging = on
            environment.charging = on
            environmentChanged()
        case .storageFull(let full):
            // The store's disk refuses to grow its files (or grows them again); a store passed in
            // (the demo's file) is on no simulated disk and does not fill.
            if full { disk?.fill() } else { disk?.freeAll() }
            let words = full ? "the phone's storage is full" : "space freed on the phone's storage"
            let unmodelled = " (not modelled: this run's store is not on the simulated disk)"
            report.note(now, disk == nil ? words + unmodelled : words)
        case .notifications(let allowed): notificationSettingsChanged(allowed: allowed)
        case .revokeSession:
            server.revoked = true
            configuration.peer?.revokeSession(at: now)
        case .renewSession:
            renewSession()
        }
    }

    /// The user unlocks the phone for the first time since it booted: the app's files open again,
    /// and a running app hears `protectedDataDidBecomeAvailableNotification`.
    mutating func firstUnlock() {
        guard !timeline.isUnlocked else { return }
        timeline.firstUnlock()
        disk?.unlock()
        report.note(now, "first unlock since the reboot: the app's files are open again")
        guard isRunning else { return }
        _ = runHosted("protectedDataDidBecomeAvailable") { $0.protectedDataDidBecomeAvailable(system: $1) }
        afterAppCode()
    }

    /// A phone call ended. `.ended` reaches only an app still running; a suspended one never hears.
    mutating func endCall() {
        audio.callEnded()
        if isRunning {
            deliver(.audioInterruption(began: false))
            afterAppCode()
        }
    }

    /// Tells a running app about changed conditions; a suspended one learns on its next run
    /// (iOS queues the notifications and authorisation callbacks of a suspended app).
    mutating func environmentChanged() {
        if isRunning {
            deliver(.settingsChanged(environment))
            afterAppCode()
        } else {
            if process != nil { timeline.settingsChangedUnheard() }
            settle()
        }
    }

    /// "Allow Once" lasts while the app is in use: once it is suspended or terminated (and no
    /// activity session or background updates keep it in use), the permission is gone and the
    /// app finds "not determined" when it next runs. "In use" is Apple's ("in the foreground or
    /// running in the background with the background location usage indicator enabled", [AD-auth]);
    /// the reset to "not determined" is from developers' reports, not an Apple page (folklore).
    mutating func endOneTimePermissionIfUnused() {
        guard permission.isOnce else { return }
        let inUseNow = isRunning && (inUse || locationDeliverable)
        guard !inUseNow, let change = permission.leftUse() else { return }
        environment.authorization = change.authorization
        report.authorizationChanges.append("\(report.clock(now)) \(change.authorization.rawValue) (\(change.reason))")
        report.note(now, "Allow Once ended: authorisation is not determined again")
        if process != nil { timeline.settingsChangedUnheard() }
    }

    /// Delivers settings that changed while the app was suspended, before the event that woke it.
    mutating func hearEnvironment() {
        guard timeline.hearSettings() else { return }
        deliver(.settingsChanged(environment))
    }

    /// Once a simulated minute: battery, movement, location nets, memory pressure, uploads.
    mutating func tick() {
        queue.push(.tick, at: now + .seconds(60))
        let battery = configuration.scenario.battery
        self.battery = min(1, max(0.01, self.battery + (charging ? battery.chargePerHour : -battery.drainPerHour) / 60))
        let wasLow = environment.batteryIsLow
        environment.batteryLevel = self.battery
        if wasLow != environment.batteryIsLow { environmentChanged() }
        if configuration.scenario.track.isMoving(at: now) {
            stationarySince = nil
        } else if stationarySince == nil {
            stationarySince = now
        }
        checkLocationNets()
        runProcessingIfDue()
        runBackgroundTransferIfDue()
        if let process, process.state != .foreground {
            let key: PolicyKey = process.state == .suspended ? .memoryKillsPerHourSuspended : .memoryKillsPerHourRunning
            if rng.unit() < profile[key] * configuration.memoryKillFactor / 60 { terminate("memory") }
        }
        if isRunning {
            deliverExitReportsIfDue()
            updateDiagnostic()
            syncIfDue()
        }
    }

    /// Adds the continuous draws since the last event.
    mutating func accrueEnergy(until time: Instant) {
        var draws: [(EnergyMeter.Component, Double)] = []
        if let request = location.standardUpdates, isRunning, locationDeliverable, !location.pausedAutomatically {
            draws.append((component(for: request.accuracy), power(for: request.accuracy)))
        }
        if location.significantChangesOn { draws.append((.significantChange, profile[.significantChangePower])) }
        if location.visitsOn { draws.append((.visits, profile[.visitsPower])) }
        if audio.playing { draws.append((.audio, profile[.audioPower])) }
        energy.accrue(until: time, draws: draws)
    }

    mutating func playSilentAudio(_ duration: Duration?) {
        report.reviewRisks.insert(
            "2.5.4: plays silent audio to stay alive; App Review rejects audio mode without audible content")
        guard let clip = audio.play() else { return }
        if let duration {
            queue.push(.audioClipEnded(generation: timeline.generation, clip: clip), at: now + duration)
        }
    }

    // MARK: Background task budget

    /// Shortly before the budget ends, the system calls every open task's expiration handler.
    mutating func callExpiryHandlers(stint: Int) {
        guard stint == timeline.stint, process?.state == .background, isRunning else { return }
        for token in backgroundTime.openTasks.sorted() {
            guard isRunning, backgroundTime.openTasks.contains(token) else { continue }
            deliver(.taskExpiring(token))
        }
        afterAppCode()
    }

    /// At the end of the budget, a task still open means the watchdog kills the app (0x8badf00d).
    mutating func enforceBudget(stint: Int) {
        guard stint == timeline.stint, process?.state == .background else { return }
        if !backgroundTime.openTasks.isEmpty {
            report.violation(
                now, "\(backgroundTime.openTasks.count) background task(s) still open when the budget ran out")
            terminate("watchdog")
            return
        }
        settle()
    }

    // MARK: Refresh tasks and silent pushes

    mutating func scheduleRefresh(earliest: Instant) {
        guard profile[.refreshRuntime] > 0 else { return }
        let request = scheduler.requestRefresh()
        let floor = max(earliest, now + profile.duration(.refreshMinInterval))
        let extra = -profile[.refreshExtraDelay] * log1p(-rng.unit() * 0.999)
        queue.push(.refreshLaunch(request: request), at: floor + .milliseconds(Int64(extra * 1000)))
    }

    /// Whether iOS grants opportunistic background launches (refresh, pushes) right now.
    var opportunisticLaunchesAllowed: Bool {
        environment.backgroundRefreshAvailable && !environment.lowPowerMode
            && (charging || battery >= profile[.criticalBattery]) && !timeline.forceQuit && timeline.isUnlocked
    }

    mutating func launchRefresh(request: Int) {
        guard scheduler.isRefreshPending(request) else { return }
        guard opportunisticLaunchesAllowed else {
            queue.push(.refreshLaunch(request: request), at: now + profile.duration(.refreshMinInterval))
            return
        }
        scheduler.refreshLaunched()
        if process == nil { launch(.backgroundRefresh) } else { wake(.backgroundRefresh) }
        if isRunning { afterAppCode() }
    }

    /// A processing task runs when its earliest date has passed, the phone is on the charger with
    /// network, and it has been idle (the app not on screen) for a while: overnight, in practice.
    mutating func runProcessingIfDue() {
        guard scheduler.processingDue(at: now, minimumInterval: profile.duration(.processingMinInterval)), charging,
            !timeline.forceQuit, timeline.isUnlocked, configuration.scenario.networkUp(at: scenarioSeconds),
            process?.state != .foreground, now - timeline.foregroundUntil >= profile.duration(.processingIdle)
        else { return }
        scheduler.processingLaunched(at: now)
        report.processingRuns += 1
        report.note(now, "BGProcessingTask \(BackgroundTaskIdentifiers.processing) runs")
        if process == nil { launch(.backgroundProcessing) } else { wake(.backgroundProcessing) }
        if isRunning { afterAppCode() }
    }

    mutating func silentPush() {
        guard profile[.silentPushRuntime] > 0, opportunisticLaunchesAllowed else { return }
        // Only an app with the `remote-notification` mode is woken or launched ([AD-push], docs/ios-policy.md §Push).
        guard plist.declares("remote-notification") || !profile.flag(.contractModesGateWakes) else {
            report.note(now, "silent push not delivered: the Info.plist has no remote-notification mode")
            return
        }
        let hourAgo = now - .seconds(3600)
        pushTimes.removeAll { $0 <= hourAgo }
        guard Double(pushTimes.count) < profile[.silentPushPerHour] else {
            report.pushesDropped += 1
            return
        }
        pushTimes.append(now)
        report.pushesDelivered += 1
        if process == nil { launch(.silentPush) } else { wake(.silentPush) }
        if isRunning { afterAppCode() }
    }
}
