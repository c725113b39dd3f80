import BackgroundCore
import LocationLog

extension Simulation {
    /// Stores an accepted fix in the phone's store (the real GRDB store, in memory: it survives the
    /// simulated process being killed, as a file would).
    mutating func record(_ fix: LocationFix, trigger: SampleTrigger, state: SampleAppState) {
        do {
            try store.append(
                fix, trigger: trigger, state: state, power: PowerContext(battery: battery, charging: charging))
            noteSample(fix)
            pendingCount += 1
        } catch {
            report.violation(now, "the store refused an accepted sample: \(error)")
        }
    }

    /// Counts a stored sample in the report (coverage, path error).
    mutating func noteSample(_ fix: LocationFix) {
        report.sampleTimes.append(fix.timestamp)
        if !fix.isApproximate { report.preciseSampleTimes.append(fix.timestamp) }
        report.samplePlaces.append((fix.timestamp, Coordinate(latitude: fix.latitude, longitude: fix.longitude)))
        lastSampleAt = fix.timestamp
    }

    /// What `UIApplication.backgroundTimeRemaining` would say: `nil` in the foreground or while a
    /// background mode keeps the app running, else the time left of the task budget or the wake.
    var backgroundTimeRemaining: Duration? {
        guard let process, process.state == .background else { return nil }
        if !backgroundHolders.isDisjoint(with: .backgroundModes) { return nil }
        let ends = [stintDeadline, wakeEnd].compactMap { $0 }.filter { $0 > now }
        return ends.max().map { $0 - now } ?? .zero
    }

    /// Gives the real sync machine its chance to upload whenever the app runs, and plays the
    /// uploads against the simulated server and network.
    mutating func syncIfDue() {
        guard isRunning else { return }
        if hosted != nil {
            // A hosted shell decides its own uploads; the system hands it what it holds.
            takeTransferOutcome()
            return
        }
        if configuration.uploadSession == .background, profile.flag(.urlSessionBackground) {
            handOffToSystemIfDue()
            return
        }
        for _ in 0..<SyncEngine.maximumUploadsPerWake {
            // The count is kept alongside the store (it is read on every wake); the end of the run
            // checks it against the store itself.
            let actions = sync.handle(
                .wake(pending: pendingCount, backgroundTimeRemaining: backgroundTimeRemaining), at: now)
            applySync(actions)
            guard let limit = actions.uploadLimit, let batch = readBatch(limit: limit) else { return }
            let outcome: UploadOutcome
            let gaps = gapsForUpload()
            if configuration.scenario.networkUp(at: scenarioSeconds) {
                energy.radioBurst(at: now, profile: profile)
                outcome =
                    configuration.peer?.upload(batch, gaps: gaps, at: now) ?? server.receive(batch, gaps: gaps, at: now)
            } else {
                outcome = .networkError(message: "no network (simulated outage)")
                configuration.peer?.uploadFailedOffline(at: now)
            }
            noteUploadForGaps(outcome)
            guard hear(outcome, of: batch) else { return }
        }
    }

    /// The batch the machine asked for; if it cannot be read, the machine is told the attempt
    /// ended, or it would wait for that answer for good.
    mutating func readBatch(limit: Int) -> [Sample]? {
        if let batch = storeValue({ try $0.oldestPending(limit: limit) }), !batch.isEmpty { return batch }
        let ended = SyncMachine.Event.uploaded(
            sent: [], outcome: .unexpectedResponse(message: "the batch could not be read"), took: .zero)
        applySync(sync.handle(ended, at: now))
        return nil
    }

    /// Gives the sync machine and the heartbeat an upload's answer; `true` when it was acknowledged.
    @discardableResult
    mutating func hear(_ outcome: UploadOutcome, of batch: [Sample]) -> Bool {
        applySync(sync.handle(.uploaded(sent: Set(batch.map(\.id)), outcome: outcome, took: .seconds(1)), at: now))
        switch outcome {
        case .acknowledged:
            report.uploads += 1
            deliverHeartbeat(.serverContact)
            return true
        case .unauthorized(let status, _):
            deliverHeartbeat(.response(.rejected(status: status)))
            return false
        default:
            return false
        }
    }

    mutating func applySync(_ actions: [SyncMachine.Action]) {
        let now = self.now
        guard let result = storeValue({ try $0.apply(actions, at: now) }) else { return }
        pendingCount -= result.deleted + result.quarantined
        for _ in result.notifications { notify(.uploadsHeld) }
    }

    /// Runs a store call; a failure is an invariant violation (the in-memory store never fills up).
    mutating func storeValue<T>(_ body: (LocationStore) throws -> T) -> T? {
        do {
            return try body(store)
        } catch {
            report.violation(now, "store error: \(error)")
            return nil
        }
    }

    /// At the end of the run: every accepted sample is on the server, pending or quarantined.
    mutating func checkNothingLost() {
        let pending = storeValue { try $0.pendingCount() } ?? 0
        let quarantined = storeValue { try $0.quarantined().count } ?? 0
        let onServer = configuration.peer?.acknowledgedSampleCount ?? server.stored.count
        report.samplesOnServer = onServer
        report.samplesPending = pending
        let accepted = report.sampleTimes.count + carriedOver
        if pending != pendingCount {
            report.violation(now, "the simulator counted \(pendingCount) pending samples, the store holds \(pending)")
        }
        if accepted != onServer + pending + quarantined {
            report.violation(
                now,
                "\(accepted) samples accepted, but \(onServer) on the server + \(pending) pending "
                    + "+ \(quarantined) quarantined")
        }
    }
}
