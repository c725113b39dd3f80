import BackgroundCore
import Foundation
package import LocationLog

/// How the server puts a phone's gap reason (and an upload delay's) into words, on the map, in the
/// JSON and in alerts.
package enum GapWords {
    /// What the reason means for the track, e.g. "no samples, the app was force-quit".
    package static func phrase(_ reason: GapReason) -> String {
        switch reason {
        case .suspended: "no samples, iOS suspended the app and nothing woke it"
        case .terminatedBySystem: "no samples, the app was not running"
        case .forceQuit: "no samples, the app was force-quit"
        case .locationServicesOff: "Location Services were off"
        case .authorizationLowered: "the app's location permission was lowered"
        case .preciseOff: "Precise Location was off"
        case .lowPowerMode: "Low Power Mode was on"
        case .noFix: "no samples, no fix to be had (no GPS signal)"
        case .storageFull: "no samples, the phone's storage was full"
        case .trackingStopped: "no samples, tracking was turned off"
        case .locationWithheld: "no samples, iOS kept location from the app"
        }
    }

    /// Whether the phone took no samples for that reason (the others slow or delay it).
    package static func stopsSampling(_ reason: GapReason) -> Bool {
        switch reason {
        case .suspended, .terminatedBySystem, .forceQuit, .locationServicesOff, .authorizationLowered,
            .storageFull, .trackingStopped, .noFix, .locationWithheld:
            true
        case .preciseOff, .lowPowerMode: false
        }
    }

    /// Why the points arrived late, e.g. "uploads waited, no network".
    package static func phrase(_ reason: UploadDelayReason) -> String {
        switch reason {
        case .noNetwork: "uploads waited, no network"
        case .serverUnreachable: "uploads waited, the server did not answer"
        case .refused: "uploads waited, the server refused them"
        }
    }

    /// "10:30–11:00: no samples, the app was force-quit; the user reopened it", times as `HH:MM`
    /// in the device's local time (a gap over midnight names both days).
    package static func label(_ gap: GapInterval, localTime: LocalTime) -> String {
        span(gap.start, gap.end, localTime) + sentence(gap)
    }

    /// "08:30–08:38: uploads waited, no network; first error: …": the points still on the phone
    /// arrived after 08:38.
    package static func label(_ delay: UploadDelay, localTime: LocalTime) -> String {
        span(delay.start, delay.end, localTime) + sentence(delay)
    }

    /// The phrase and the phone's detail.
    package static func sentence(_ gap: GapInterval) -> String {
        phrase(gap.reason) + (gap.detail.map { $0.isEmpty ? "" : "; " + $0 } ?? "")
    }

    /// The phrase and the phone's detail.
    package static func sentence(_ delay: UploadDelay) -> String {
        phrase(delay.reason) + (delay.detail.map { $0.isEmpty ? "" : "; " + $0 } ?? "")
    }

    private static func span(_ start: Instant, _ end: Instant, _ localTime: LocalTime) -> String {
        let sameDay = localTime.day(of: start) == localTime.day(of: end)
        return "\(clock(start, localTime, day: false))–\(clock(end, localTime, day: !sameDay)): "
    }

    private static func local(_ instant: Instant, _ localTime: LocalTime) -> Int64 {
        instant.milliseconds.quotientFloor(1000) + Int64(localTime.offsetSeconds(at: instant))
    }

    private static func clock(_ instant: Instant, _ localTime: LocalTime, day: Bool) -> String {
        let seconds = local(instant, localTime)
        let days = seconds.quotientFloor(86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let time = String(format: "%02d:%02d", secondOfDay / 3600, secondOfDay / 60 % 60)
        guard day else { return time }
        let (_, month, dayOfMonth) = Instant.civil(fromDays: days)
        return String(format: "%02d-%02d ", Int(month), Int(dayOfMonth)) + time
    }
}

/// One sampling gap or upload delay as the JSON endpoint and the map page give it (`gaps` and
/// `delays` apart): a delay is when the phone's uploads did not get through, and why; the points
/// still on the phone arrived at `end` or later.
package struct GapBody: Encodable, Hashable, Sendable {
    /// Epoch milliseconds, UTC.
    var start: Int64
    var end: Int64
    var reason: String
    var detail: String?
    /// A sampling gap's: whether the phone took no samples then (else it sampled less). Absent
    /// for an upload delay.
    var no_samples: Bool?
    /// The words the map shows, times in the device's local time (``LocalTime``).
    var label: String

    package init(_ gap: GapInterval, localTime: LocalTime) {
        (start, end, reason, detail) = (gap.start.milliseconds, gap.end.milliseconds, gap.reason.rawValue, gap.detail)
        no_samples = GapWords.stopsSampling(gap.reason)
        label = GapWords.label(gap, localTime: localTime)
    }

    package init(_ delay: UploadDelay, localTime: LocalTime) {
        (start, end, reason, detail) = (
            delay.start.milliseconds, delay.end.milliseconds, delay.reason.rawValue, delay.detail
        )
        label = GapWords.label(delay, localTime: localTime)
    }
}
