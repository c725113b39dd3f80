public import BackgroundCore

extension LocationStore {
    /// What carrying out a list of sync actions did.
    public struct SyncActionsResult: Hashable, Sendable {
        public var deleted = 0
        public var quarantined = 0
        /// What to tell the user (`.notifyUser`), in order; the shell delivers them.
        public var notices: [SyncMachine.Notice] = []
    }

    /// Carries out the store's part of `SyncMachine` actions: acknowledgements, saved state,
    /// notices and diagnostics. `.upload` is the caller's, who needs its outcome; every shell
    /// (the device, the simulated iPhone, the iOS app) shares this so none handles them differently.
    /// - Throws: `StoreError` when an acknowledgement or the state cannot be written (the samples
    ///   then stay pending and are sent again).
    public func apply(_ actions: [SyncMachine.Action], at now: Instant) throws(StoreError) -> SyncActionsResult {
        var result = SyncActionsResult()
        for action in actions {
            switch action {
            case .upload:
                continue
            case .acknowledge(let delete, let quarantine):
                let (deleted, quarantined) = try acknowledge(deleting: delete, quarantining: quarantine, at: now)
                result.deleted += deleted
                result.quarantined += quarantined
            case .save(let snapshot):
                try save(snapshot)
            case .notifyUser(let notice):
                result.notices.append(notice)
                try? log(.error, "user notified: \(notice.message)", at: now)
            case .log(let level, let message):
                // A full disk must not stop the sync that would free it: diagnostics are best effort.
                try? log(level, message, at: now)
            }
        }
        return result
    }
}

extension [SyncMachine.Action] {
    /// The batch size of the `.upload` action among these, if there is one.
    public var uploadLimit: Int? {
        for case .upload(let limit) in self { return limit }
        return nil
    }
}
