import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import UIKit
    import CoreLocation
#else
    import ShadowUIKit
    import ShadowCoreLocation
#endif

extension Tracker {
    /// Carries out the keep-alive machine's effects, in order.
    func perform(_ effects: [KeepAliveMachine.Action]) {
        for effect in effects {
            switch effect {
            case .task(let task): perform(task)
            case .scheduleTimer(let id, let instant):
                clock.schedule(id, at: instant) { [weak self] in self?.deliver(.timerFired(id)) }
            case .cancelTimer(let id): clock.cancel(id)
            case .startLocationUpdates(let request): location?.startUpdates(request)
            case .stopLocationUpdates: location?.stopUpdates()
            case .requestFix(let accuracy): location?.requestFix(accuracy, source: .oneShot)
            case .startSignificantChanges: location?.monitor.startMonitoringSignificantLocationChanges()
            case .stopSignificantChanges: location?.monitor.stopMonitoringSignificantLocationChanges()
            case .startVisits: location?.monitor.startMonitoringVisits()
            case .stopVisits: location?.monitor.stopMonitoringVisits()
            case .monitorRegion(let latitude, let longitude, let radius):
                location?.monitorResumeRegion(latitude: latitude, longitude: longitude, radius: radius)
            case .stopRegionMonitoring: location?.stopResumeRegion()
            case .startMotionUpdates: motion?.start()
            case .stopMotionUpdates: motion?.stop()
            case .beginActivitySession: beginActivitySession()
            case .endActivitySession: endActivitySession()
            case .playSilentAudio(let duration): audio?.play(for: duration)
            case .stopAudio: audio?.stop()
            case .scheduleRefresh(let earliest): scheduleRefresh(earliest: earliest)
            case .scheduleProcessing(let earliest): scheduleProcessing(earliest: earliest)
            case .recordSample(let accepted): record(accepted.fix, trigger: accepted.trigger, state: accepted.state)
            case .rejectFix(let fix, let reason):
                fixesRejected += 1
                log(.info, "fix at \(fix.timestamp) rejected: \(reason)")
                noteRejectedFixForGaps(fix, reason)
            case .notify(let notice): postNotice(notice)
            case .scheduleDeadManNotice(let due, let lastSample):
                NoticeAdapter.scheduleDeadMan(due: due, lastSample: lastSample, now: clock.now) { [weak self] in
                    self?.noticeRefused($0, $1)
                }
                state.deadManDueMilliseconds = due.milliseconds
                saveState()
            case .cancelDeadManNotice:
                NoticeAdapter.cancelDeadMan()
                state.deadManDueMilliseconds = nil
                saveState()
            case .log(let message): log(.info, message)
            }
        }
    }

    /// Background tasks: named, and the expiration handler ends the task before it returns.
    private func perform(_ effect: BackgroundTaskLedger.Action) {
        switch effect {
        case .beginTask(let token, let name):
            let id = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
                self?.taskExpiring(token)
            }
            if id == .invalid {
                deliver(.taskRefused(token))
            } else {
                taskIDs[token] = id
            }
        case .endTask(let token):
            if let id = taskIDs.removeValue(forKey: token) { UIApplication.shared.endBackgroundTask(id) }
        case .expired(let token, let name):
            log(.info, "background task \(token) \"\(name)\" expired and was ended")
        case .misuse(let misuse):
            log(.error, "background task ledger: \(misuse)")
        }
    }

    /// The expiration handler: the machine ends the task in this same call; should it not (it
    /// was stopped, or the token is unknown to it), the task is ended here anyway, never leaked.
    func taskExpiring(_ token: BackgroundTaskToken) {
        // The stint's last seconds: the login's heartbeat warns the user that it stops running.
        let remaining = UIApplication.shared.backgroundTimeRemaining
        if remaining < .greatestFiniteMagnitude {
            deliverHeartbeat(.backgroundTimeRemaining(.milliseconds(Int64(max(0, remaining) * 1000))))
        }
        deliver(.taskExpiring(token))
        if let id = taskIDs.removeValue(forKey: token) {
            UIApplication.shared.endBackgroundTask(id)
            log(.error, "background task \(token) was still open at expiry; ended it")
        }
        if !isForeground, taskIDs.isEmpty { LocationStore.suspendAll() }
    }

    /// The battery as iOS reports it now: unknown (-1, monitoring off) stays unknown.
    private var power: PowerContext {
        let device = UIDevice.current
        let level = device.batteryLevel
        let charging: Bool?
        switch device.batteryState {
        case .charging, .full: charging = true
        case .unplugged: charging = false
        default: charging = nil
        }
        return PowerContext(battery: level >= 0 ? Double(level) : nil, charging: charging)
    }

    /// Stores a sample. A full disk is remembered in memory (nothing can be written then) and
    /// recorded as a gap by the store with the next sample it takes (``StorageFullWatch``); the
    /// user is told once (``UserNotice/storageFull``), and the problem clears when a sample is
    /// stored again.
    private func record(_ fix: LocationFix, trigger: SampleTrigger, state appState: SampleAppState) {
        do {
            let power = self.power
            let sample = try withStore {
                try $0.append(fix, trigger: trigger, state: appState, power: power, storageFull: &storageFull)
            }
            if status.lastProblem?.hasPrefix(Self.sampleNotStored) == true { status.lastProblem = nil }
            status.lastSample = Date(timeIntervalSince1970: fix.timestamp.seconds)
            sampleBroadcast.send(sample)
            #if canImport(Observation)
                observableIfMade?.stored(sample)
            #endif
            syncWake()
        } catch {
            status.lastProblem = Self.sampleNotStored + "\(error)"
            // Once per full-disk interval, not at every refused sample.
            if (error as? StoreError)?.isDiskFull == true, storageFull.refusedSamples == 1 {
                postNotice(.storageFull)
            }
        }
    }

    /// How `status.lastProblem` begins when a sample could not be stored.
    static let sampleNotStored = "a sample could not be stored: "

    /// The activity session keeps a When-In-Use app "in use" in the background. iOS lets an app
    /// begin one only in the foreground; from iOS 18 a `CLServiceSession` lets a relaunched app
    /// recreate it at once in the background.
    func beginActivitySession() {
        state.activitySession = true
        saveState()
        guard activitySession == nil else { return }
        if isForeground || iosMajor >= 18 {
            recreateLocationSessions()
        } else {
            log(.info, "activity session wanted, but iOS \(iosMajor) allows it only in the foreground")
        }
    }

    func endActivitySession() {
        state.activitySession = false
        saveState()
        activitySession?.invalidate()
        activitySession = nil
        if #available(iOS 18.0, *) { (serviceSession as? CLServiceSession)?.invalidate() }
        serviceSession = nil
        diagnosticsTask?.cancel()
        diagnosticsTask = nil
    }

    /// Recreates the sessions held when the app last ran, promptly at launch: on iOS 18+ the
    /// service session and the activity session even in the background, on iOS 17 the activity
    /// session only in the foreground (docs/ios-policy.md §Location).
    func recreateLocationSessions() {
        if iosMajor >= 18, serviceSession == nil, #available(iOS 18.0, *) {
            let session = CLServiceSession(authorization: .whenInUse)
            serviceSession = session
            listenToDiagnostics(of: session)
        }
        guard activitySession == nil, iosMajor >= 17, isForeground || serviceSession != nil else { return }
        activitySession = CLBackgroundActivitySession()
    }
}
