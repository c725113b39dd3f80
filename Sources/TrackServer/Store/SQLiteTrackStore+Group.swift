import BackgroundCore
import GRDB

extension SQLiteTrackStore {
    /// The group commit: one write transaction (one fsync at `synchronous = FULL`) for every
    /// request, each request's rows inside its own SAVEPOINT. A request whose rows fail rolls back
    /// to its savepoint and gets its error; the others commit.
    ///
    /// It runs to its end even if the calling task is cancelled (GRDB's `asyncWrite` is not tied
    /// to a task): the other requests of the group ride on this commit.
    public func insertGroup(_ requests: [GroupInsert]) async throws -> [Result<InsertOutcome, any Error>] {
        await withCheckedContinuation { continuation in
            insertGroup(requests) { continuation.resume(returning: $0) }
        }
    }

    /// ``insertGroup(_:)`` answered on GRDB's writer queue, where the commit ran: the group commit
    /// starts its next commit from there, with no task scheduled between two commits.
    public func insertGroup(
        _ requests: [GroupInsert], completion: @escaping @Sendable ([Result<InsertOutcome, any Error>]) -> Void
    ) {
        // One request alone needs no savepoint: its failure rolls back the transaction, which is
        // its own (and resets the statement).
        if requests.count == 1, let request = requests.first {
            writer.asyncWrite({ db in try Self.insertRequest(db, request) }) { _, result in
                completion([result.mapError { $0 as any Error }])
            }
            return
        }
        writer.asyncWrite({ db in try Self.insertEachInSavepoint(db, requests) }) { _, result in
            switch result {
            case .success(let results): completion(results)
            case .failure(let error): completion(Array(repeating: .failure(error), count: requests.count))
            }
        }
    }

    /// After a failed step inside a savepoint (the transaction goes on), SQLite's next reset of the
    /// statement returns that failure once more, and GRDB throws it from the next execute: the next
    /// request would fail too. Binding arguments resets the statement and clears the failure.
    private static func clearFailure(_ statement: Statement, _ request: GroupInsert) {
        if let sample = request.samples.first {
            _ = try? statement.setArguments(arguments(sample, deviceID: 0, now: request.now))
        }
    }

    private static func insertEachInSavepoint(
        _ db: Database, _ requests: [GroupInsert]
    ) throws -> [Result<InsertOutcome, any Error>] {
        let statement = try db.cachedStatement(sql: insertSQL)
        var deviceIDs: [String: Int64] = [:]
        var lastSeen: [Int64: (milliseconds: Int64, added: Int)] = [:]
        // The days the group's stored rows fall on, and the earliest, per device: marked once at the
        // end, where a request at a time would mark the same day (and the next) again for every point.
        var newRows: [Int64: NewRows] = [:]
        var results: [Result<InsertOutcome, any Error>] = []
        results.reserveCapacity(requests.count)
        func noteSeen(_ deviceID: Int64, _ request: GroupInsert, accepted: Int) {
            let before = lastSeen[deviceID] ?? (.min, 0)
            lastSeen[deviceID] = (max(before.milliseconds, request.now.milliseconds), before.added + accepted)
        }
        for request in requests {
            let outcome: InsertOutcome
            do {
                let found = try deviceIDs[request.device] ?? Self.deviceID(db, request.device)
                guard let found else { throw TrackStoreError.unknownDevice(request.device) }
                deviceIDs[request.device] = found
                // A request of one sample (OwnTracks, OsmAnd) writes one row in one statement, and
                // SQLite undoes a failed statement by itself: the transaction goes on without it.
                // So it needs no savepoint, which would cost two more statements per request.
                var rows = NewRows()
                if request.samples.count == 1 {
                    outcome = try insertRows(db, statement, request, deviceID: found, newRows: &rows)
                } else {
                    var inSavepoint = InsertOutcome(accepted: [], duplicates: [])
                    try db.inSavepoint {
                        inSavepoint = try insertRows(db, statement, request, deviceID: found, newRows: &rows)
                        return .commit
                    }
                    outcome = inSavepoint
                }
                // Only a request whose rows stayed: a failed one's days were rolled back with them.
                newRows[found, default: NewRows()].merge(rows)
                noteSeen(found, request, accepted: outcome.accepted.count)
            } catch {
                // Some SQLite errors (a full disk, I/O) end the whole transaction: then nothing
                // of the group can commit, and every request must hear it.
                guard db.isInsideTransaction else { throw error }
                results.append(.failure(error))
                clearFailure(statement, request)
                continue
            }
            results.append(.success(outcome))
        }
        for (deviceID, seen) in lastSeen {
            try markSeen(db, deviceID: deviceID, at: seen.milliseconds, added: seen.added)
        }
        for (deviceID, rows) in newRows {
            try markPending(db, deviceID: deviceID, rows: rows)
        }
        return results
    }
}
