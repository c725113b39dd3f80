public import BackgroundCore

/// Why the phone's points reached the server late: an upload delay, not a sampling gap (the
/// phone goes on sampling and keeps the points until an upload is acknowledged).
///
/// The phone records these as intervals, like ``GapReason``s, and sends them in the same `gaps`
/// array of a native batch (docs/protocol.md §Gaps); the reason's raw value says which kind an
/// interval is. Phones before the split sent `no-network` as a gap: it reads as this.
public enum UploadDelayReason: String, Sendable, Hashable, CaseIterable {
    /// The phone had no network at all (no Wi-Fi or cellular path, Airplane Mode).
    case noNetwork = "no-network"
    /// The phone had a network but no answer from the server (connection refused or lost, DNS,
    /// TLS, timeout).
    case serverUnreachable = "server-unreachable"
    /// The server answered but did not take the batch (a refused token, rate limit, server error).
    case refused
}

/// One interval in which the phone's uploads did not get through: points sampled before `end`
/// that were still on the phone reached the server at `end` or later.
public struct UploadDelay: Hashable, Sendable {
    /// The first upload that failed.
    public var start: Instant
    /// The first answer after it (an acknowledgement, or a different failure).
    public var end: Instant
    public var reason: UploadDelayReason
    /// The phone's words: the first error.
    public var detail: String?

    public init(start: Instant, end: Instant, reason: UploadDelayReason, detail: String? = nil) {
        self.start = start
        self.end = end
        self.reason = reason
        self.detail = detail
    }
}

/// An interval the phone reported, of either kind: the reason's raw value says which.
///
/// ```swift
/// ReportedInterval(start: a, end: b, reason: "no-network", detail: nil)  // .delay(…)
/// ```
public enum ReportedInterval: Hashable, Sendable {
    /// The phone took no samples (or fewer), and why.
    case gap(GapInterval)
    /// The phone's uploads waited, and why.
    case delay(UploadDelay)

    /// The interval a reason names, or `nil` for a reason of neither kind.
    public init?(start: Instant, end: Instant, reason: String, detail: String?) {
        if let reason = GapReason(rawValue: reason) {
            self = .gap(GapInterval(start: start, end: end, reason: reason, detail: detail))
        } else if let reason = UploadDelayReason(rawValue: reason) {
            self = .delay(UploadDelay(start: start, end: end, reason: reason, detail: detail))
        } else {
            return nil
        }
    }

    /// Every reason a phone may send, sampling reasons first.
    public static let allReasons: [String] =
        GapReason.allCases.map(\.rawValue) + UploadDelayReason.allCases.map(\.rawValue)

    public var start: Instant {
        switch self {
        case .gap(let gap): gap.start
        case .delay(let delay): delay.start
        }
    }

    public var end: Instant {
        switch self {
        case .gap(let gap): gap.end
        case .delay(let delay): delay.end
        }
    }

    /// The reason's raw value, as stored and sent.
    public var reason: String {
        switch self {
        case .gap(let gap): gap.reason.rawValue
        case .delay(let delay): delay.reason.rawValue
        }
    }

    public var detail: String? {
        switch self {
        case .gap(let gap): gap.detail
        case .delay(let delay): delay.detail
        }
    }

    /// The sampling gap, if this is one.
    public var gap: GapInterval? {
        if case .gap(let gap) = self { gap } else { nil }
    }

    /// The upload delay, if this is one.
    public var delay: UploadDelay? {
        if case .delay(let delay) = self { delay } else { nil }
    }
}
