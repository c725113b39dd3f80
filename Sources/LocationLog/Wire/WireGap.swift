public import BackgroundCore
public import Foundation

/// One reported interval as JSON in a version-2 batch (docs/protocol.md §Gaps): `start` and `end`
/// are epoch milliseconds UTC, `reason` one of ``GapReason``'s raw values (a sampling gap) or of
/// ``UploadDelayReason``'s (an upload delay), `detail` the phone's words.
///
/// The id is minted on the phone when the interval is recorded, so a re-sent batch stores it once
/// and the acknowledgement names exactly the intervals the server kept.
public struct WireGap: Codable, Hashable, Sendable {
    public var id: String
    /// Epoch milliseconds, UTC.
    public var start: Int64
    /// Epoch milliseconds, UTC.
    public var end: Int64
    /// Kept as a string so a reason this version does not know is refused for that gap alone.
    public var reason: String
    public var detail: String?

    public init(id: String, start: Int64, end: Int64, reason: String, detail: String? = nil) {
        self.id = id
        self.start = start
        self.end = end
        self.reason = reason
        self.detail = detail
    }

    public init(id: UUID, _ interval: ReportedInterval) {
        self.init(
            id: id.wireString, start: interval.start.milliseconds, end: interval.end.milliseconds,
            reason: interval.reason, detail: interval.detail)
    }

    public init(id: UUID, _ gap: GapInterval) {
        self.init(id: id, .gap(gap))
    }
}

extension WireGap {
    /// The longest `detail` kept, in characters: it is a phrase, not a log.
    public static let maximumDetailLength = 200

    /// The interval this JSON describes, validated: a sampling gap or an upload delay, as its
    /// reason says; the message is suitable for a rejection.
    public func interval() throws(SampleRuleViolation) -> ReportedInterval {
        guard UUID(parsing: id) != nil else {
            throw SampleRuleViolation(.gap, field: "gaps", "gap id \"\(id.prefix(64))\" is not a UUID")
        }
        // Epoch milliseconds from 2000-01-01 to 2200-01-01: anything else is a broken clock.
        let plausible: ClosedRange<Int64> = 946_684_800_000...7_258_118_400_000
        guard plausible.contains(start), plausible.contains(end) else {
            throw SampleRuleViolation(
                .gap, field: "gaps",
                "gap \(start)…\(end) is not between 2000 and 2200 in epoch milliseconds; send times as epoch ms UTC")
        }
        guard start <= end else {
            throw SampleRuleViolation(
                .gap, field: "gaps", "gap end \(end) is before its start \(start); send start <= end")
        }
        if let detail, detail.count > Self.maximumDetailLength {
            throw SampleRuleViolation(
                .gap, field: "gaps",
                "gap detail has \(detail.count) characters, more than \(Self.maximumDetailLength); shorten it")
        }
        guard
            let interval = ReportedInterval(
                start: Instant(milliseconds: start), end: Instant(milliseconds: end), reason: reason, detail: detail)
        else {
            let allowed = ReportedInterval.allReasons.joined(separator: ", ")
            throw SampleRuleViolation(
                .gap, field: "gaps",
                "gap reason \"\(reason.prefix(32))\" is not one of \(allowed); a newer phone may know more reasons "
                    + "than this server: update the server")
        }
        return interval
    }
}
