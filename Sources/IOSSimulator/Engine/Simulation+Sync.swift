import BackgroundCore
import LocationLog

extension Simulation {
    /// Stores an accepted fix in the phone's store (the real GRDB store, in memory: it survives the
    /// simulated process being killed, as a file would).
    ///
    /// While the scenario has the phone's storage full, the write fails as the store fails on a
    /// full disk (`StoreError.diskFull`, nothing written): the app remembers it in its memory and
    /// the next sample it stores records the interval (`StorageFullWatch`). The model refuses
    /// sample writes only; the store's small in-place updates (sync state, acknowledgements, which
    /// free space) go through.
    mutating func record(_ fix: LocationFix, trigger: SampleTrigger, state: SampleAppState) {
        guard var process else { return }
        defer { self.process?.storageFull = process.storageFull }
        if storageIsFull {
            let error = StoreError.diskFull(path: "the simulated phone's store")
            if process.storageFull.since == nil { report.note(now, "sample not stored: \(error)") }
            process.storageFull.sampleRefused(error, at: fix.timestamp)
            return
        }
        do {
            try store.append(
                fix, trigger: trigger, state: state, power: PowerContext(battery: battery, charging: charging),
                storageFull: &process.storageFull)
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
            guard let upload = wakeSync(backgroundTimeRemaining: backgroundTimeRemaining, withGaps: true) else {
                return
            }
            let outcome: UploadOutcome
            if configuration.scenario.networkUp(at: scenarioSeconds) {
                energy.radioBurst(at: now, profile: profile)
                outcome =
                    configuration.peer?.upload(upload.samples, gaps: upload.gaps, at: now)
                    ?? server.receive(upload.samples, gaps: upload.gaps, at: now)
            } else {
                outcome = .noNetwork(message: "no network (simulated outage)")
                configuration.peer?.uploadFailedOffline(at: now)
            }
            noteUploadForGaps(outcome)
            guard hear(outcome, of: upload.samples) else { return }
        }
    }

    /// One wake of the sync driver (the steps the shells share): the batch to send when the
    /// machine wants to upload. The count of pending samples is kept alongside the store (it is
    /// read on every wake); the end of the run checks it against the store itself.
    mutating func wakeSync(backgroundTimeRemaining: Duration?, withGaps: Bool) -> SyncDriver.Upload? {
        let (now, store, pending) = (self.now, self.store, pendingCount)
        let gapStore = withGaps && recordsGaps ? store : nil
        return syncStep { sync, tally throws(StoreError) in
            try sync.wake(
                pending: pending, backgroundTimeRemaining: backgroundTimeRemaining, store: store, at: now,
                gaps: { gapStore?.gapsForNextBatch() ?? [] }, into: &tally)
        } ?? nil
    }

    /// Gives the sync machine and the heartbeat an upload's answer; `true` when it was acknowledged.
    /// The app's upload takes one simulated second, as far as the machine knows.
    @discardableResult
    mutating func hear(_ outcome: UploadOutcome, of batch: [Sample]) -> Bool {
        let (now, store) = (self.now, self.store)
        syncStep { sync, tally throws(StoreError) in
            try sync.hear(outcome, of: Set(batch.map(\.id)), took: .seconds(1), store: store, at: now, into: &tally)
        }
        switch outcome {
        case .acknowledged:
            deliverHeartbeat(.serverContact)
            return true
        case .unauthorized(let status, _):
            deliverHeartbeat(.response(.rejected(status: status)))
            return false
        default:
            return false
        }
    }

    /// The user signed in again: a 401/403 hold is released.
    mutating func syncCredentialsChanged() {
        let (now, store) = (self.now, self.store)
        syncStep { sync, tally throws(StoreError) in try sync.credentialsChanged(store: store, at: now, into: &tally) }
    }

    /// Runs one step of the sync driver: a store failure is an invariant violation (the in-memory
    /// store never fills up); the pending count and the report follow what it did, and the
    /// machine's notices become the app's local notifications.
    @discardableResult
    private mutating func syncStep<T>(
        _ step: (inout SyncDriver, inout SyncDriver.Tally) throws(StoreError) -> T
    ) -> T? {
        var tally = SyncDriver.Tally()
        defer {
            pendingCount -= tally.deleted + tally.quarantined
            report.uploads += tally.acknowledged
            for notice in tally.notices { notify(notice.userNotice) }
        }
        do {
            return try step(&sync, &tally)
        } catch {
            report.violation(now, "store error: \(error)")
            return nil
        }
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
