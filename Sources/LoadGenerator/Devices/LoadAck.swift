import Foundation

/// What an answer did with a request's samples.
package enum LoadAck: Hashable, Sendable {
    /// Every sample acknowledged; `duplicates` of them the server already had (a resend after an
    /// error whose first attempt was committed).
    case complete(duplicates: Int)
    /// A 200 that does not acknowledge every sample (some rejected or skipped): the run reports
    /// it as an error and stops the device, since resending the same points cannot change it.
    case incomplete(String)
    /// A failure worth retrying with the same samples: 408, 429, 5xx (after `Retry-After`).
    case retry(String, after: Int?)
    /// Any other status: the device stops.
    case refused(String)

    /// Reads `response` to a request that carried `count` samples in `protocol`.
    package init(_ response: LoadResponse, count: Int, protocol: LoadProtocol) {
        let status = response.status
        guard status == 200 else {
            if status == 408 || status == 429 || (500...599).contains(status) {
                self = .retry("HTTP \(status)", after: response.retryAfter)
            } else {
                self = .refused("HTTP \(status)")
            }
            return
        }
        switch `protocol` {
        case .native:
            guard let object = Self.object(response.body),
                let accepted = object["accepted"] as? [Any], let duplicates = object["duplicates"] as? [Any]
            else {
                self = .incomplete("200 without accepted/duplicates")
                return
            }
            let rejected = (object["rejected"] as? [Any])?.count ?? 0
            guard rejected == 0, accepted.count + duplicates.count == count else {
                self = .incomplete("200 acknowledging \(accepted.count + duplicates.count) of \(count)")
                return
            }
            self = .complete(duplicates: duplicates.count)
        case .overland:
            guard let object = Self.object(response.body), object["result"] as? String == "ok",
                let saved = object["saved"] as? Int
            else {
                self = .incomplete("200 without \"result\":\"ok\"")
                return
            }
            let skipped = (object["skipped"] as? [Any])?.count ?? 0
            guard skipped == 0, saved == count else {
                self = .incomplete("200 saving \(saved) of \(count)")
                return
            }
            self = .complete(duplicates: 0)
        case .owntracks, .osmand:
            // A 200 is the only acknowledgement these protocols have; the final check finds a point
            // that was quarantined instead of stored.
            self = .complete(duplicates: 0)
        }
    }

    private static func object(_ body: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
