import BackgroundCore
import Foundation
import LocationLog

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Tracker {
    private var uploadsDirectory: URL { directory.appendingPathComponent("uploads", isDirectory: true) }

    /// Gives the sync machine its chance whenever the app runs, and times the next chance.
    func syncWake() {
        clock.cancel(Self.syncTimer)
        // One upload at a time; at a relaunch, wait until the session said what became of the last.
        guard uploadsInFlight.isEmpty else { return }
        guard let pending = try? withStore({ try $0.pendingCount() }) else { return }
        // No background time is needed: the background session sends the file while the app is
        // suspended or dead, so the upload is never deferred for lack of time (found by hosting the
        // shell in the simulator: passing UIKit's remaining time deferred the upload, and the next
        // wake, due at once, spun the sync timer).
        let actions = sync.handle(.wake(pending: pending, backgroundTimeRemaining: nil), at: clock.now)
        apply(actions)
        if let limit = actions.uploadLimit {
            startUpload(limit: limit)
        } else if let next = sync.nextWake(pending: pending, now: clock.now) {
            // Never a timer due at once: a wake that did not upload now would only repeat itself.
            clock.schedule(Self.syncTimer, at: max(next, clock.now + .seconds(1))) { [weak self] in self?.syncWake() }
        }
    }

    func apply(_ actions: [SyncMachine.Action]) {
        do {
            let result = try withStore { try $0.apply(actions, at: clock.now) }
            if !result.notifications.isEmpty {
                NoticeAdapter.post(.uploadsHeld)
                status.notices.append(.uploadsHeld)
            }
        } catch {
            status.lastProblem = "sync state could not be saved: \(error)"
        }
        publish()
    }

    /// Writes the batch to a file (a background session uploads only from files) with a record of
    /// the samples it carries, and hands it to the session.
    private func startUpload(limit: Int) {
        let now = clock.now
        let batch: [Sample]
        do {
            batch = try withStore { try $0.oldestPending(limit: limit) }
        } catch {
            finishUpload(
                sent: [], outcome: .unexpectedResponse(message: "the batch could not be read: \(error)"), took: .zero)
            return
        }
        guard !batch.isEmpty else {
            finishUpload(sent: [], outcome: .acknowledged(BatchAcknowledgement()), took: .zero)
            return
        }
        let ids = batch.map(\.id)
        let name = BatchRequest.batchID(for: ids).uuidString.lowercased()
        let body = uploadsDirectory.appendingPathComponent(name + ".body")
        do {
            let json = try JSONEncoder().encode(
                BatchRequest(
                    batch: BatchRequest.batchID(for: ids).wireString, device: device,
                    samples: batch.map(WireSample.init), gaps: gapsForUpload()))
            try Gzip.compress(json).write(to: body, options: .atomic)
            try JSONEncoder().encode(UploadRecord(sent: ids, startedMilliseconds: now.milliseconds))
                .write(to: uploadsDirectory.appendingPathComponent(name + ".json"), options: .atomic)
        } catch {
            finishUpload(
                sent: Set(ids), outcome: .unexpectedResponse(message: "the batch could not be written: \(error)"),
                took: .zero)
            return
        }
        var request = URLRequest(
            url: configuration.server.appendingPathComponent("v1").appendingPathComponent("batches"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(configuration.token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        uploadsInFlight.insert(name)
        uploader.upload(request, fromFile: body, description: name)
    }

    /// What the background session reports, now or at a later launch.
    func handle(_ event: UploadEvent) {
        switch event {
        case .finished(let name, let status, let body, let retryAfter, let error):
            let outcome: UploadOutcome
            if let status {
                outcome = UploadOutcome(httpStatus: status, body: body, retryAfter: retryAfter)
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

    private func finishUpload(sent: Set<UUID>, outcome: UploadOutcome, took: Duration) {
        apply(sync.handle(.uploaded(sent: sent, outcome: outcome, took: took), at: clock.now))
        let result = UploadResult(
            finishedAt: Date(timeIntervalSince1970: clock.now.seconds), sent: sent.count, outcome: outcome)
        uploadBroadcast.send(result)
        #if canImport(Observation)
            observableIfMade?.uploaded(result)
        #endif
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
