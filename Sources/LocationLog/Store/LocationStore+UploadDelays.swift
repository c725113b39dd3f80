public import BackgroundCore
import GRDB

/// Upload delays (issue 37 item 3): why the phone's points reached the server late. Kept in the
/// same tables as the sampling gaps (`gap_open` while in effect, `gap` until acknowledged), told
/// apart by the reason.
extension LocationStore {
    /// What an upload's outcome says, the one rule every shell applies: no network at all opens
    /// ``UploadDelayReason/noNetwork``, no answer on a network ``UploadDelayReason/serverUnreachable``,
    /// an answer that is not an acknowledgement ``UploadDelayReason/refused`` (a 413 says nothing:
    /// the batch is halved and sent again at once); each closes the delay of another reason, and
    /// an acknowledgement closes any, then lets go of exactly the intervals it names.
    /// - Returns: how many intervals the acknowledgement let go of.
    @discardableResult
    public func noteUpload(_ outcome: UploadOutcome, at now: Instant) throws(StoreError) -> Int {
        switch outcome {
        case .acknowledged(let ack):
            try noteUploadDelay(nil, at: now)
            return try acknowledgeGaps(ack.gaps)
        case .noNetwork(let message):
            try noteUploadDelay(.noNetwork, detail: "first error: \(message)", at: now)
        case .networkError(let message):
            try noteUploadDelay(.serverUnreachable, detail: "first error: \(message)", at: now)
        case .tooLarge:
            break
        case .badRequest, .unauthorized, .rateLimited, .serverError, .clientError, .unexpectedResponse:
            try noteUploadDelay(.refused, detail: "first answer: \(outcome.summary)", at: now)
        }
        return 0
    }

    /// An upload's outcome in terms of delay: `reason` is why it did not get through (`nil`: it
    /// did). A reason not yet open opens from `now` with `detail` (the first error); every other
    /// open delay closes at `now` and becomes an interval to upload. ``noteUpload(_:at:)`` calls it with
    /// what an upload's outcome says.
    public func noteUploadDelay(_ reason: UploadDelayReason?, detail: String? = nil, at now: Instant)
        throws(StoreError)
    {
        let makeID = self.makeID
        try write("noting an upload's delay") { db in
            for other in UploadDelayReason.allCases where other != reason {
                _ = try GapRows.close(db, other.rawValue, at: now, makeID: makeID)
            }
            if let reason { try GapRows.open(db, reason.rawValue, detail: detail, at: now) }
        }
    }
}
