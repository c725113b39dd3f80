import BackgroundCore

/// The runtime contract (docs/ios-policy.md §Contract): what iOS enforces on the app at run time, with the
/// consequence iOS gives it. A crash is a kill of its own kind with the exception's text.
extension Simulation {
    /// The app raised an uncaught exception: it dies now.
    mutating func crash(_ crash: RuntimeCrash) {
        guard process != nil else { return }
        report.crashes.append(CrashRecord(at: report.clock(now), exception: crash.exception, reason: crash.reason))
        report.note(now, "CRASH: \(crash)")
        terminate("crash")
    }

    /// Takes in what hosted code did that the contract judges, in order; a crash ends the process.
    mutating func applyRuntime(_ calls: [RuntimeCall]) {
        let generation = timeline.generation
        for call in calls {
            guard generation == timeline.generation else { return }
            switch call {
            case .crash(let crash): self.crash(crash)
            case .violation(let text): report.violation(now, "runtime contract: \(text)")
            case .warning(let text): report.warning(now, text)
            case .requestWhenInUseAuthorization: requestAuthorization(always: false)
            case .requestAlwaysAuthorization: requestAuthorization(always: true)
            case .backgroundTaskCompleted(let identifier, let success):
                report.note(now, "BGTask \(identifier) completed (success: \(success))")
                completeGrant(identifier)
            case .remoteNotificationCompleted(let result):
                report.note(now, "silent push: fetch completion handler called (\(result))")
                if backgroundTime.completePushHandler() { queue.push(.settle, at: now) }
            case .submitRefused(let identifier, let error):
                report.submitRefusals += 1
                report.note(now, "BGTaskScheduler.submit(\(identifier)) threw \(error)")
            case .serviceSessionCreated: serviceSessionCreated()
            case .serviceSessionInvalidated: location.serviceSessionInvalidated()
            case .requestNotificationAuthorization: break  // answered before the effects
            }
        }
    }

    // MARK: Info.plist

    var plist: InfoPlist { configuration.effectivePlist }

    /// `startUpdatingLocation` with `allowsBackgroundLocationUpdates = true` and no `location`
    /// mode: "a fatal error that terminates the app" ([AD-CLM]). Returns whether the app lives.
    mutating func checkBackgroundLocation(_ request: LocationUpdatesRequest) -> Bool {
        guard request.allowsBackgroundUpdates, !plist.declares("location"),
            profile.flag(.contractBackgroundLocationMode)
        else { return true }
        crash(.backgroundLocationWithoutMode)
        return false
    }

    mutating func requestAuthorization(always: Bool, inForeground: Bool? = nil) {
        guard profile.flag(.contractPromptedAuthorization) else { return }
        let inForeground = inForeground ?? (process?.state == .foreground)
        let result =
            always
            ? permission.requestAlways(inForeground: inForeground)
            : permission.requestWhenInUse(inForeground: inForeground)
        let call = always ? "requestAlwaysAuthorization" : "requestWhenInUseAuthorization"
        switch result {
        case .success(let change?): applyPermission(change)
        case .success(nil): break
        case .failure(let refusal):
            if case .missingKey = refusal { report.warning(now, "\(call): \(refusal)") }
            report.note(now, "\(call): \(refusal)")
        }
    }

    /// The authorisation (and Precise setting) changed: the app hears it as iOS tells it.
    mutating func applyPermission(_ change: LocationPermission.Change) {
        report.authorizationChanges.append(
            "\(report.clock(now)) \(change.authorization.rawValue) (\(change.reason))")
        report.note(now, "location authorisation: \(change.authorization.rawValue) (\(change.reason))")
        var changed = environment.authorization != change.authorization
        environment.authorization = change.authorization
        if let precise = change.precise, configuration.ios >= 14, precise != environment.preciseLocation {
            environment.preciseLocation = precise
            location.forgetApproximatePlace()
            changed = true
        }
        if changed { environmentChanged() }
    }

    /// The app is about to get location in the background: provisional Always meets its prompt.
    mutating func locationUsedInBackground() {
        guard process?.state != .foreground, let change = permission.usedInBackground() else { return }
        applyPermission(change)
    }

    // MARK: BGTask grants

    /// A refresh or processing task starts: its time lasts until the app completes it, at most the
    /// runtime; shortly before, iOS calls the task's expiration handler. A silent push's time
    /// lasts until the app calls its fetch completion handler, at most 30 s ([AD-drn]).
    mutating func openGrant(_ reason: LaunchReason) {
        let identifier: String
        let runtime: Duration
        switch reason {
        case .silentPush:
            guard profile.flag(.contractPushCompletion) else { return }
            let version = backgroundTime.openPushHandler()
            queue.push(.pushHandlerDeadline(version: version), at: now + profile.duration(.silentPushRuntime))
            return
        case .backgroundRefresh:
            (identifier, runtime) = (BackgroundTaskIdentifiers.refresh, profile.duration(.refreshRuntime))
        case .backgroundProcessing:
            (identifier, runtime) = (BackgroundTaskIdentifiers.processing, profile.duration(.processingRuntime))
        default: return
        }
        guard profile.flag(.contractTaskCompletion) else { return }
        let version = scheduler.openGrant(identifier)
        queue.push(.grantExpiring(version: version), at: now + max(.zero, runtime - profile.duration(.expiryLead)))
        queue.push(.grantDeadline(version: version), at: now + runtime)
    }

    /// `setTaskCompleted(success:)`: the grant ends; the app suspends unless something else holds it.
    mutating func completeGrant(_ identifier: String) {
        guard scheduler.completeGrant(identifier) else { return }
        queue.push(.settle, at: now)
    }

    mutating func grantExpiring(version: Int) {
        guard let grant = scheduler.grant(version: version), isRunning else { return }
        report.note(now, "BGTask \(grant.identifier) expiring: its expiration handler runs")
        _ = runHosted("a BGTask expiration handler") { $0.backgroundTaskExpiring(grant.identifier, system: $1) }
    }

    /// Not completed before expiry "may result in the system killing your app" ([AD-bgexp]).
    mutating func grantDeadline(version: Int) {
        guard let grant = scheduler.endGrant(version: version) else { return }
        guard process != nil else { return }
        report.note(now, "BGTask \(grant.identifier) still open at its deadline: the system kills the app")
        terminate("task-not-completed")
    }

    /// "You must call the block in the handler parameter or your app will be terminated. Your app
    /// has up to 30 seconds" ([AD-drn]).
    mutating func pushHandlerDeadline(version: Int) {
        guard backgroundTime.pushHandlerOverdue(version: version), process != nil else { return }
        report.note(
            now, "silent push: the fetch completion handler was not called within 30 s: the system kills the app")
        terminate("push-not-completed")
    }

    // MARK: Location sessions (iOS 18)

    mutating func serviceSessionCreated() {
        if location.serviceSessionCreated() {
            report.note(now, "CLServiceSession created: location resumes for the app")
        }
    }

    /// iOS 18 invalidates the sessions at every relaunch: an app that held one must create it
    /// again within a few seconds (DTS, forums thread 797319), or it is treated as no longer
    /// wanting location.
    mutating func startServiceSessionDeadline() {
        guard configuration.ios >= 18, location.serviceSessionAtExit else { return }
        queue.push(
            .serviceSessionDeadline(generation: timeline.generation),
            at: now + profile.duration(.serviceSessionDeadline))
    }

    mutating func serviceSessionDeadline(generation: Int) {
        guard generation == timeline.generation, process != nil, !location.serviceSessionHeld else { return }
        location.abandon()
        report.note(
            now,
            "no CLServiceSession recreated within \(Int(profile[.serviceSessionDeadline])) s of the relaunch: "
                + "iOS treats the app as no longer wanting location")
        updateDiagnostic()
        settle()
    }
}
