import BackgroundCore
import Foundation
import LocationLog

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Tracker {
    private var uploadsDirectory: URL { directory.appendingPathComponent("uploads", isDirectory: true) }

    /// Gives the sync machine its chance whenever the app runs (``SyncDriver``'s wake step), and
    /// times the next chance.
    func syncWake() {
        clock.cancel(Self.syncTimer)
        // Before the first unlock the token and the upload files are closed: the first unlock
        // wakes the sync again (Tracker+Unlock).
        guard heldStore == nil else { return }
        // One upload at a time; at a relaunch, wait until the session said what became of the last.
        guard uploadsInFlight.isEmpty else { return }
        guard let pending = try? withStore({ try $0.pendingCount() }) else { return }
        // No background time is needed: the background session sends the file while the app is
        // suspended or dead, so the upload is never deferred for lack of time (found by hosting the
        // shell in the simulator: passing UIKit's remaining time deferred the upload, and the next
        // wake, due at once, spun the sync timer).
        let now = clock.now
        // A batch that could not be read, or held nothing readable, ends at once (told as any upload's end).
        let upload = syncStep(sent: 0) { sync, store, tally in
            // The zone the user is in now: the server reads the batch's local days in it.
            try sync.wake(
                pending: pending, store: store, at: now, gaps: { store.gapsForNextBatch() },
                timeZone: TimeZone.current.identifier, into: &tally)
        }
        if let upload = upload ?? nil {
            startUpload(upload)
        } else if let next = sync.nextWake(pending: pending, now: now) {
            // Never a timer due at once: a wake that did not upload now would only repeat itself.
            clock.schedule(Self.syncTimer, at: max(next, now + .seconds(1))) { [weak self] in self?.syncWake() }
        }
    }

    /// The user signed in again or the token was replaced: a 401/403 hold is released.
    func syncCredentialsChanged() {
        let now = clock.now
        syncStep(sent: 0) { sync, store, tally in try sync.credentialsChanged(store: store, at: now, into: &tally) }
    }

    /// Runs one step of the sync driver on the store, then delivers what it produced: the
    /// machine's notices as local notifications, and each upload's end (`sent` samples) to the observers.
    @discardableResult
    private func syncStep<T>(
        sent: Int, _ step: (inout SyncDriver, LocationStore, inout SyncDriver.Tally) throws -> T
    ) -> T? {
        var tally = SyncDriver.Tally()
        defer {
            for notice in tally.notices {
                postNotice(notice.userNotice)
            }
            for outcome in tally.outcomes {
                let result = UploadResult(
                    finishedAt: Date(timeIntervalSince1970: clock.now.seconds), sent: sent, outcome: outcome)
                uploadBroadcast.send(result)
                #if canImport(Observation)
                    observableIfMade?.uploaded(result)
                #endif
            }
            publish()
        }
        do {
            return try withStore { store in try step(&sync, store, &tally) }
        } catch {
            status.lastProblem = "sync could not read or save its state: \(error)"
            return nil
        }
    }

    /// Writes the batch's body to a file (a background session uploads only from files) with a
    /// record of the samples it carries, and hands it to the session with the shared request.
    private func startUpload(_ upload: SyncDriver.Upload) {
        let ids = upload.samples.map(\.id)
        let name = upload.batchID.wireString
        let body = uploadsDirectory.appendingPathComponent(name + ".body")
        do {
            try upload.request.httpBody(gzip: true).write(to: body, options: StoreLocation.writing)
            try JSONEncoder().encode(UploadRecord(sent: ids, startedMilliseconds: clock.now.milliseconds))
                .write(to: uploadsDirectory.appendingPathComponent(name + ".json"), options: StoreLocation.writing)
        } catch {
            finishUpload(
                sent: Set(ids), outcome: .unexpectedResponse(message: "the batch could not be written: \(error)"),
                took: .zero)
            return
        }
        let request = BatchRequest.urlRequest(server: configuration.server, token: configuration.token, gzip: true)
        uploadsInFlight.insert(name)
        uploader.upload(request, fromFile: body, description: name)
    }

    /// What the background session reports, now or at a later launch.
    func handle(_ event: UploadEvent) {
        switch event {
        case .finished(let name, let status, let body, let retryAfter, let error, let offline):
            let outcome: UploadOutcome
            if let status {
                outcome = UploadOutcome(httpStatus: status, body: body, retryAfter: retryAfter)
            } else if offline {
                outcome = .noNetwork(message: error ?? "the phone had no network")
            } else {
                outcome = .networkError(message: error ?? "the upload ended without an answer")
            }
            // Only what the session heard (not a transfer lost to a force-quit) says whether there was a network.
            noteUploadForGaps(outcome)
            answered(name, outcome: outcome)
        case .allEventsDelivered:
            urlSessionCompletion?()
            urlSessionCompletion = nil
        }
    }

    /// Applies an answer to exactly the samples its record names, even at a later launch (the
    /// sync machine deletes only those the server acknowledged).
    private func answered(_ name: String, outcome: UploadOutcome) {
        let recordURL = uploadsDirectory.appendingPathComponent(name + ".json")
        uploadsInFlight.remove(name)
        guard let data = try? Data(contentsOf: recordURL),
            let record = try? JSONDecoder().decode(UploadRecord.self, from: data)
        else {
            log(.warning, "an upload answer for \(name) arrived without its record; its samples stay pending")
            syncWake()
            return
        }
        try? FileManager.default.removeItem(at: uploadsDirectory.appendingPathComponent(name + ".body"))
        try? FileManager.default.removeItem(at: recordURL)
        let took = clock.now - Instant(milliseconds: record.startedMilliseconds)
        finishUpload(sent: Set(record.sent), outcome: outcome, took: max(took, .zero))
    }

    /// The answer to an upload (``SyncDriver``'s hear step): exactly the acknowledged samples leave the store.
    private func finishUpload(sent: Set<UUID>, outcome: UploadOutcome, took: Duration) {
        let now = clock.now
        syncStep(sent: sent.count) { sync, store, tally in
            try sync.hear(outcome, of: sent, took: took, store: store, at: now, into: &tally)
        }
        if case .acknowledged = outcome, !sent.isEmpty {
            status.lastUpload = Date(timeIntervalSince1970: clock.now.seconds)
            deliverHeartbeat(.serverContact)  // an answered upload proves the session alive
        }
        publish()
        syncWake()
    }

    /// At launch: uploads recorded on disk are in flight until the session answers; those it no
    /// longer runs (force-quit, reboot) count as failed, and their samples are sent again.
    func reconcileUploads() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: uploadsDirectory.path)) ?? []
        let recorded = Set(names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
        uploadsInFlight.formUnion(recorded)
        guard !recorded.isEmpty else { return }
        uploader.inFlight { [weak self] running in
            guard let self else { return }
            for name in recorded.subtracting(running) where self.uploadsInFlight.contains(name) {
                self.answered(
                    name,
                    outcome: .networkError(message: "the background upload did not survive (force quit or reboot)"))
            }
        }
    }
}
