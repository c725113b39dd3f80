import BackgroundCore
import GRDB

extension SQLiteTrackStore {
    /// The group commit: one write transaction (one fsync at `synchronous = FULL`) for every
    /// request, each request's rows inside its own SAVEPOINT. A request whose rows fail rolls back
    /// to its savepoint and gets its error; the others commit.
    public func insertGroup(_ requests: [GroupInsert]) async throws -> [Result<InsertOutcome, any Error>] {
        try await writer.write { db in
            // Not the cached statement: after a failed step SQLite's reset returns that failure
            // again, which GRDB throws at the next execute, so a failed request would fail the next
            // one too. A fresh statement per group, and another after each failure.
            var statement = try db.makeStatement(sql: Self.insertSQL)
            var deviceIDs: [String: Int64] = [:]
            var lastSeen: [Int64: Int64] = [:]
            var results: [Result<InsertOutcome, any Error>] = []
            results.reserveCapacity(requests.count)
            for request in requests {
                var outcome = InsertOutcome(accepted: [], duplicates: [])
                var stored: Int64?
                do {
                    try db.inSavepoint {
                        let deviceID = try deviceIDs[request.device] ?? Self.deviceID(db, request.device)
                        guard let deviceID else { throw TrackStoreError.unknownDevice(request.device) }
                        deviceIDs[request.device] = deviceID
                        for sample in request.samples {
                            try statement.execute(
                                arguments: Self.arguments(sample, deviceID: deviceID, now: request.now))
                            if db.changesCount > 0 {
                                outcome.accepted.append(sample.key)
                            } else {
                                outcome.duplicates.append(sample.key)
                            }
                        }
                        stored = deviceID
                        return .commit
                    }
                } catch {
                    // Some SQLite errors (a full disk, I/O) end the whole transaction: then nothing
                    // of the group can commit, and every request must hear it.
                    guard db.isInsideTransaction else { throw error }
                    results.append(.failure(error))
                    statement = try db.makeStatement(sql: Self.insertSQL)
                    continue
                }
                if let stored { lastSeen[stored] = max(lastSeen[stored] ?? .min, request.now.milliseconds) }
                results.append(.success(outcome))
            }
            for (deviceID, milliseconds) in lastSeen {
                try db.execute(
                    sql: "UPDATE device SET lastSeenAt = ? WHERE id = ?", arguments: [milliseconds, deviceID])
            }
            return results
        }
    }
}
